//! report.html in a real browser: shipped studies are run at a few trials and their reports opened in
//! headless Chromium, which must load each without a console message, a script error, a failed or any
//! other request (the page is self-contained: docs/scenarios.md "Outputs"), a broken image or a chart
//! drawn at no size; must lay it out on a phone's width without the page scrolling sideways; and must
//! show in the headline table the value summary.csv holds.
//!
//! How: Chromium is driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`: commands on
//! its fd 3, answers and events on its fd 4, each a JSON message ended by a NUL byte), so no port is opened
//! and nothing is scraped from its log. The test enables the `Runtime` (console calls, uncaught
//! exceptions), `Log` (the browser's own errors, such as "Failed to load resource") and `Network` (every
//! request and every failed load) domains before it navigates, waits for the page's load event, then reads
//! the DOM with `Runtime.evaluate`. A page that loads a script or an image is caught twice over: by the
//! request it makes, and by its console error or broken image. The checker proves itself first on a copy
//! of a report with a planted `console.error` and a missing image, which it must report.
//!
//! Without Chromium (`chromium`, `chromium-browser`, `google-chrome` on PATH, or `SUBDUAL_CHROMIUM`) the
//! test prints why and passes, unless `SUBDUAL_REQUIRE_BROWSER=1` (as `.ci/run` sets), where it fails.
//! Chromium runs with `--no-sandbox`, since CI runs as root, where its sandbox refuses to start.

use crate::common;

use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use common::{Csv, Json, Scratch, assert_success, parse_json, repo, run_quiet};

/// The longest wait for one answer or event.
const WAIT: Duration = Duration::from_secs(60);

/// The browser to use, if one is installed.
fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("SUBDUAL_CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in [
            "chromium",
            "chromium-browser",
            "google-chrome",
            "google-chrome-stable",
        ] {
            let exe = dir.join(name);
            if exe.is_file() {
                return Some(exe);
            }
        }
    }
    None
}

/// A JSON string literal.
fn quote(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn text_of(json: Option<&Json>) -> String {
    match json {
        Some(Json::Str(s)) | Some(Json::Number(s)) => s.clone(),
        Some(Json::Bool(b)) => b.to_string(),
        Some(other) => format!("{other:?}"),
        None => String::new(),
    }
}

/// A path into nested JSON objects.
fn at<'j>(json: &'j Json, path: &[&str]) -> Option<&'j Json> {
    path.iter().try_fold(json, |j, key| j.get(key))
}

/// Headless Chromium on a DevTools pipe.
struct Browser {
    child: Child,
    commands: ChildStdin,
    messages: Receiver<Json>,
    next_id: u64,
    /// Every event received so far, in order.
    events: Vec<Json>,
}

impl Browser {
    fn launch(exe: &Path, profile: &Path) -> Browser {
        // The pipe must be the child's fds 3 and 4: the shell moves its stdin and stdout there, and gives
        // Chromium's own output to stderr.
        let mut child = Command::new("sh")
            .arg("-c")
            .arg("exec \"$0\" \"$@\" 3<&0 4>&1 0</dev/null 1>&2")
            .arg(exe)
            .args([
                "--headless=new",
                "--remote-debugging-pipe",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-extensions",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--mute-audio",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("about:blank")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("cannot start the browser");
        let commands = child.stdin.take().expect("a pipe to the browser");
        let mut answers = BufReader::new(child.stdout.take().expect("a pipe from the browser"));
        let (send, messages) = mpsc::channel();
        std::thread::spawn(move || {
            let mut message = Vec::new();
            let mut byte = [0u8; 1];
            while answers.read_exact(&mut byte).is_ok() {
                if byte[0] != 0 {
                    message.push(byte[0]);
                    continue;
                }
                let text = String::from_utf8_lossy(&message).into_owned();
                message.clear();
                match parse_json(&text) {
                    Ok(json) => {
                        if send.send(json).is_err() {
                            return;
                        }
                    }
                    Err(e) => panic!("the browser sent what is not JSON ({e}): {text}"),
                }
            }
        });
        Browser {
            child,
            commands,
            messages,
            next_id: 0,
            events: Vec::new(),
        }
    }

    fn receive(&mut self, what: &str) -> Json {
        self.messages
            .recv_timeout(WAIT)
            .unwrap_or_else(|e| panic!("no answer from the browser while waiting for {what}: {e}"))
    }

    /// Sends a command (to a page's session, or to the browser) and returns its result, keeping every
    /// event that arrives meanwhile.
    fn call(&mut self, session: Option<&str>, method: &str, params: &str) -> Json {
        self.next_id += 1;
        let id = self.next_id;
        let session = session.map_or(String::new(), |s| format!(",\"sessionId\":{}", quote(s)));
        let message =
            format!("{{\"id\":{id},\"method\":\"{method}\",\"params\":{params}{session}}}\0");
        self.commands
            .write_all(message.as_bytes())
            .and_then(|()| self.commands.flush())
            .expect("cannot write to the browser");
        loop {
            let answer = self.receive(method);
            if answer.get("id").map(|i| text_of(Some(i))) == Some(id.to_string()) {
                if let Some(error) = answer.get("error") {
                    panic!("{method} failed: {error:?}");
                }
                return answer.get("result").cloned().unwrap_or(Json::Null);
            }
            self.events.push(answer);
        }
    }

    /// Waits for an event of `session` named `method` (or finds it among those already received).
    fn wait_for(&mut self, session: &str, method: &str) {
        let is =
            |e: &Json| text_of(e.get("method")) == method && text_of(e.get("sessionId")) == session;
        if self.events.iter().any(is) {
            return;
        }
        let start = Instant::now();
        while start.elapsed() < WAIT {
            let event = self.receive(method);
            let found = is(&event);
            self.events.push(event);
            if found {
                return;
            }
        }
        panic!("no {method} within {WAIT:?}");
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // Asked to close, then ended if it has not: only this test's own child.
        let _ = self
            .commands
            .write_all(b"{\"id\":999999,\"method\":\"Browser.close\",\"params\":{}}\0");
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(5) {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What a page showed: the problems found, and the DOM facts read once it loaded.
struct Visit {
    problems: Vec<String>,
    facts: Json,
    /// Whether the page's own request was seen: the events are really watched.
    requested: bool,
}

/// The DOM facts read after load, as one JSON object; `cell` is the `data-value` of the headline cell
/// whose text is wanted.
fn facts_script(cell: &str) -> String {
    format!(
        r#"JSON.stringify({{
  brokenImages: Array.from(document.images).filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.getAttribute('src')),
  svgImages: document.querySelectorAll('svg image').length,
  charts: document.querySelectorAll('figure > svg').length,
  captions: document.querySelectorAll('figure > figcaption').length,
  tinyCharts: Array.from(document.querySelectorAll('figure > svg')).filter(s => s.getBoundingClientRect().width < 200 || s.getBoundingClientRect().height < 100).length,
  overflow: document.documentElement.scrollWidth - window.innerWidth,
  sections: Array.from(document.querySelectorAll('main > section')).map(s => s.id),
  headlineRows: document.querySelectorAll('table.headline tbody tr').length,
  fights: document.querySelectorAll('#fights details.story').length,
  openFights: document.querySelectorAll('#fights details.story[open]').length,
  pairColumns: Array.from(document.querySelectorAll('#why .pair')).map(p => getComputedStyle(p).gridTemplateColumns.split(' ').length).join(','),
  cell: (document.querySelector('table.headline td[data-value="' + {cell} + '"]') || {{}}).textContent || null
}})"#,
        cell = quote(cell)
    )
}

/// Opens `file` in a new page at a phone's width and returns what it showed.
fn visit(browser: &mut Browser, file: &Path, cell: &str) -> Visit {
    let url = format!("file://{}", file.display());
    let target = browser.call(None, "Target.createTarget", "{\"url\":\"about:blank\"}");
    let target_id = text_of(target.get("targetId"));
    let attached = browser.call(
        None,
        "Target.attachToTarget",
        &format!("{{\"targetId\":{},\"flatten\":true}}", quote(&target_id)),
    );
    let session = text_of(attached.get("sessionId"));
    let s = Some(session.as_str());
    for domain in ["Runtime", "Log", "Network", "Page"] {
        browser.call(s, &format!("{domain}.enable"), "{}");
    }
    browser.call(
        s,
        "Emulation.setDeviceMetricsOverride",
        "{\"width\":390,\"height\":844,\"deviceScaleFactor\":2,\"mobile\":true}",
    );
    let first_event = browser.events.len();
    let navigated = browser.call(s, "Page.navigate", &format!("{{\"url\":{}}}", quote(&url)));
    if let Some(error) = navigated.get("errorText") {
        panic!("cannot open {url}: {error:?}");
    }
    browser.wait_for(&session, "Page.loadEventFired");
    let evaluated = browser.call(
        s,
        "Runtime.evaluate",
        &format!(
            "{{\"expression\":{},\"returnByValue\":true}}",
            quote(&facts_script(cell))
        ),
    );
    let facts_text = text_of(at(&evaluated, &["result", "value"]));
    let facts = parse_json(&facts_text)
        .unwrap_or_else(|e| panic!("the page's facts are not JSON ({e}): {evaluated:?}"));
    let mut problems = Vec::new();
    let mut requested = false;
    for event in &browser.events[first_event..] {
        if text_of(event.get("sessionId")) != session {
            continue;
        }
        let params = event.get("params").cloned().unwrap_or(Json::Null);
        let p = |path: &[&str]| text_of(at(&params, path));
        match text_of(event.get("method")).as_str() {
            "Runtime.consoleAPICalled" => {
                let args = match params.get("args") {
                    Some(Json::Array(args)) => args
                        .iter()
                        .map(|a| text_of(a.get("value").or(a.get("description"))))
                        .collect::<Vec<_>>()
                        .join(" "),
                    _ => String::new(),
                };
                problems.push(format!("console.{}: {args}", p(&["type"])));
            }
            "Runtime.exceptionThrown" => problems.push(format!(
                "uncaught: {} {}",
                p(&["exceptionDetails", "text"]),
                p(&["exceptionDetails", "exception", "description"])
            )),
            "Log.entryAdded" if matches!(p(&["entry", "level"]).as_str(), "error" | "warning") => {
                problems.push(format!(
                    "browser {}: {} {}",
                    p(&["entry", "level"]),
                    p(&["entry", "text"]),
                    p(&["entry", "url"])
                ))
            }
            "Network.requestWillBeSent" if p(&["request", "url"]) == url => requested = true,
            "Network.requestWillBeSent" => {
                problems.push(format!("a request: {}", p(&["request", "url"])))
            }
            "Network.loadingFailed" => {
                problems.push(format!("a failed load: {}", p(&["errorText"])))
            }
            _ => {}
        }
    }
    if let Some(Json::Array(broken)) = facts.get("brokenImages") {
        for image in broken {
            problems.push(format!("a broken image: {}", text_of(Some(image))));
        }
    }
    for (fact, what) in [
        ("svgImages", "an image inside a chart"),
        ("tinyCharts", "a chart drawn at no size"),
    ] {
        if text_of(facts.get(fact)) != "0" {
            problems.push(format!("{what}: {}", text_of(facts.get(fact))));
        }
    }
    let overflow: f64 = text_of(facts.get("overflow")).parse().unwrap_or(f64::NAN);
    if overflow.is_nan() || overflow > 0.0 {
        problems.push(format!(
            "the page scrolls sideways on a phone by {overflow} px"
        ));
    }
    browser.call(
        None,
        "Target.closeTarget",
        &format!("{{\"targetId\":{}}}", quote(&target_id)),
    );
    Visit {
        problems,
        facts,
        requested,
    }
}

/// The first headline cell of summary.csv (the first point's first metric, when it ran) and the text the
/// report shows for it: a probability in percent, one decimal (two below 10 %), else two decimals.
fn known_cell(dir: &Path) -> (String, String) {
    let summary = Csv::read(&dir.join("summary.csv"));
    let (metric, estimate, status) = (
        summary.col("metric"),
        summary.col("estimate"),
        summary.col("status"),
    );
    let row = summary
        .rows
        .iter()
        .find(|r| r[status] == "ok" && !r[estimate].is_empty())
        .expect("a point that ran");
    let x: f64 = row[estimate].parse().expect("a number");
    let shown = if row[metric].starts_with("p_") {
        let p = x * 100.0;
        if p != 0.0 && p.abs() < 10.0 {
            format!("{p:.2}%")
        } else {
            format!("{p:.1}%")
        }
    } else {
        format!("{x:.2}")
    };
    (row[estimate].clone(), shown)
}

#[test]
fn reports_of_shipped_studies_load_cleanly_in_a_browser() {
    let Some(exe) = chromium() else {
        let required = std::env::var("SUBDUAL_REQUIRE_BROWSER").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "SUBDUAL_REQUIRE_BROWSER=1 but no Chromium was found (install `chromium`, or name it in \
             SUBDUAL_CHROMIUM)"
        );
        println!(
            "skipped: no Chromium on PATH (install `chromium`, or set SUBDUAL_CHROMIUM); set \
             SUBDUAL_REQUIRE_BROWSER=1 to fail instead"
        );
        return;
    };
    let scratch = Scratch::new("report_browser");
    let out = scratch.out();
    let studies = [
        "sap-or-mug-the-sentry",
        "mugging-halfling-reach",
        "thugs-on-a-guard",
    ];
    for stem in studies {
        let file = repo().join("scenarios").join(format!("{stem}.toml"));
        assert_success(&run_quiet(&file, &out, &["--trials", "2000"]));
    }
    let mut browser = Browser::launch(&exe, &scratch.path.join("profile"));

    // The checker first proves it sees what it must: a planted console error and a missing image.
    let first = out.join(studies[0]);
    let (raw, _) = known_cell(&first);
    let planted = scratch.write(
        "planted.html",
        common::read(&first.join("report.html")).replace(
            "</body>",
            "<script>console.error('planted error')</script><img src=\"missing.png\" alt=\"\"></body>",
        ),
    );
    let seen = visit(&mut browser, &planted, &raw);
    println!("the planted page: {:#?}", seen.problems);
    assert!(seen.requested, "the page's own request was not seen");
    for wanted in [
        "console.error: planted error",
        "a broken image: missing.png",
        "missing.png",
    ] {
        assert!(
            seen.problems.iter().any(|p| p.contains(wanted)),
            "the checker missed `{wanted}`: {:?}",
            seen.problems
        );
    }

    for stem in studies {
        let dir = out.join(stem);
        let (raw, shown) = known_cell(&dir);
        let seen = visit(&mut browser, &dir.join("report.html"), &raw);
        assert!(
            seen.requested,
            "{stem}: the page's own request was not seen"
        );
        assert!(
            seen.problems.is_empty(),
            "{stem}/report.html: {:#?}",
            seen.problems
        );
        let facts = &seen.facts;
        assert_eq!(
            text_of(facts.get("cell")),
            shown,
            "{stem}: the headline cell of {raw}"
        );
        let svgs = std::fs::read_dir(&dir)
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .ends_with(".svg")
            })
            .count();
        assert!(svgs > 0, "{stem}: no chart");
        assert_eq!(text_of(facts.get("charts")), svgs.to_string(), "{stem}");
        assert_eq!(text_of(facts.get("captions")), svgs.to_string(), "{stem}");
        // One headline row per point: a point is a variant and its sweep values (the cells before
        // `level_gap` and the seven after it).
        let points = Csv::read(&dir.join("summary.csv"))
            .rows
            .iter()
            .map(|r| r[..r.len() - 7].to_vec())
            .collect::<std::collections::BTreeSet<_>>()
            .len();
        assert_eq!(
            text_of(facts.get("headlineRows")),
            points.to_string(),
            "{stem}"
        );
        let Some(Json::Array(sections)) = facts.get("sections") else {
            panic!("{stem}: no sections: {facts:?}");
        };
        let sections: Vec<String> = sections.iter().map(|s| text_of(Some(s))).collect();
        let fights = stem == "thugs-on-a-guard";
        let mut expected = vec!["charts", "headline", "differences", "why"];
        if fights {
            expected.push("fights");
        }
        expected.extend(["tunes", "ineligible", "run", "scenario"]);
        assert_eq!(sections, expected, "{stem}");
        // Two variants: one flipped trial told side by side, stacked in one column on a phone.
        let columns = text_of(facts.get("pairColumns"));
        if stem == "mugging-halfling-reach" {
            assert_eq!(columns, "", "{stem}: one variant, nothing to pair");
        } else {
            assert_eq!(
                columns, "1",
                "{stem}: the told trial's two columns on a phone"
            );
        }
        // The fights worth reading: the median fight and the first death of each variant, folded.
        let told = if fights { "4" } else { "0" };
        assert_eq!(text_of(facts.get("fights")), told, "{stem}");
        assert_eq!(text_of(facts.get("openFights")), "0", "{stem}");
    }
}
