use super::*;

const MUG: &str = r#"
title = "Mugging an ogre sentry"
action = "mug"
trials = 1000
seed = 5

[attacker]
class = "thief"
level = 9
weapon = "club"
position = "behind"

[victim]
monster = "ogre"
aware = false

[sweep]
"attacker.level" = { from = 1, to = 3 }
"victim.monster" = ["orc", "ogre"]

[[variant]]
name = "as written"

[[variant]]
name = "helmets"
rules = { helmets = true }
"#;

fn parse(text: &str) -> Result<Scenario, ScenarioError> {
    Scenario::parse("test.toml", "test", text.as_bytes())
}

fn error(text: &str) -> ScenarioError {
    parse(text).unwrap_err()
}

#[test]
fn points_run_variants_then_the_grid_with_the_last_axis_fastest() {
    let s = parse(MUG).unwrap();
    assert_eq!(s.variants, ["as written", "helmets"]);
    assert_eq!(s.points.len(), 2 * 3 * 2);
    let labels: Vec<String> = s
        .points
        .iter()
        .take(3)
        .map(|p| format!("{} {}", p.values[0], p.values[1]))
        .collect();
    assert_eq!(labels, ["1 orc", "1 ogre", "2 orc"]);
    assert_eq!(s.points[6].variant, 1);
    // level_gap: thief 1 against the 1 HD orc is 0, against the 4+1 ogre −3.
    assert_eq!((s.points[0].level_gap, s.points[1].level_gap), (0, -3));
    assert_eq!((s.trials, s.seed, s.confidence), (1000, 5, 0.95));
    // Every point is found again from its variant and the index of each of its values.
    for (i, p) in s.points.iter().enumerate() {
        let picks: Vec<usize> = s
            .axes
            .iter()
            .zip(&p.values)
            .map(|(a, v)| a.values.iter().position(|x| x == v).unwrap())
            .collect();
        assert_eq!(s.point_index(p.variant, &picks), i);
    }
}

#[test]
fn the_variant_overrides_the_base_and_the_sweep_overrides_both() {
    let s = parse(MUG).unwrap();
    let Some(Prepared::Mug(plain)) = s.points[1].kept.as_deref() else {
        panic!()
    };
    let Some(Prepared::Mug(helmets)) = s.points[7].kept.as_deref() else {
        panic!()
    };
    // Level-1 thief (THAC0 20) against the ogre (AC 5; AC 10 bareheaded under the helmet rule).
    assert_eq!(plain.attack.target, 15);
    assert_eq!(helmets.attack.target, 10);
    // Save 12 + (1 - 4).
    assert_eq!(plain.save.needed, 9);
}

#[test]
fn without_variants_there_is_one_named_base() {
    let s = parse("action = \"mug\"\n[attacker]\nclass = \"thief\"\nweapon = \"club\"\nposition = \"behind\"\n[victim]\nclass = \"fighter\"\naware = false\n").unwrap();
    assert_eq!(s.variants, ["base"]);
    assert_eq!(s.points.len(), 1);
    assert!(s.charts.is_empty(), "no sweep, no default line chart");
}

#[test]
fn ineligible_points_are_kept_with_their_reason() {
    let text = MUG.replace(
        "\"victim.monster\" = [\"orc\", \"ogre\"]",
        "\"victim.monster\" = [\"ogre\", \"hill giant\"]",
    );
    let s = parse(&text).unwrap();
    assert!(s.points[0].eligible());
    assert!(matches!(
        s.points[1].recipe,
        Err(Ineligible::TooTall { .. })
    ));
}

#[test]
fn a_file_where_every_point_is_ineligible_is_an_error() {
    let e =
        error("action = \"mug\"\n[attacker]\nclass = \"fighter\"\n[victim]\nmonster = \"ogre\"\n");
    assert!(e.message.contains("every point is ineligible"), "{e}");
    assert_eq!(e.line, Some(1));
}

#[test]
fn misspelt_keys_point_at_the_line_and_suggest_the_word() {
    let e = error(&MUG.replace("level = 9", "levle = 9"));
    assert_eq!(e.line, Some(9));
    assert_eq!(e.help.as_deref(), Some("did you mean `level`?"));
    let e = error(&MUG.replace("title", "titel"));
    assert_eq!(e.help.as_deref(), Some("did you mean `title`?"));
}

#[test]
fn out_of_range_values_point_at_the_value_that_set_them() {
    let e = error(&MUG.replace("weapon = \"club\"", "weapon = \"club\"\ndexterity = 30"));
    assert_eq!((e.line, e.column), (Some(11), 13));
    assert!(e.message.contains("attacker.dexterity"), "{e}");
    let e = error(&MUG.replace("{ from = 1, to = 3 }", "[1, 2, 30]"));
    assert_eq!((e.line, e.column), (Some(18), 27));
    assert!(e.message.contains("30"), "{e}");
    let e = error(&MUG.replace("rules = { helmets = true }", "rules = { sap_ko_cap = 200 }"));
    assert_eq!(e.line, Some(26));
    // A level swept everywhere is never used from the base table: only the values that run are checked.
    assert!(parse(&MUG.replace("level = 9", "level = 25")).is_ok());
}

#[test]
fn unknown_catalog_names_and_sweep_paths_are_errors_with_suggestions() {
    let e = error(&MUG.replace("[\"orc\", \"ogre\"]", "[\"orc\", \"orge\"]"));
    assert!(e.message.contains("did you mean `ogre`"), "{e}");
    let e = error(&MUG.replace("\"attacker.level\"", "\"attacker.levl\""));
    assert_eq!(e.help.as_deref(), Some("did you mean `level`?"));
    assert_eq!(e.line, Some(18));
    let e = error(&MUG.replace("\"attacker.level\"", "\"atacker.level\""));
    assert_eq!(e.help.as_deref(), Some("did you mean `attacker`?"));
}

#[test]
fn wrong_types_and_syntax_errors_have_places() {
    let e = error(&MUG.replace("level = 9", "level = \"nine\""));
    assert_eq!(e.line, Some(9));
    let e = error("action = \"mug\"\n[attacker\n");
    assert_eq!(e.line, Some(2));
    let e = error(&MUG.replace("[\"orc\", \"ogre\"]", "[\"orc\", 3]"));
    assert_eq!((e.line, e.column), (Some(19), 28));
}

#[test]
fn empty_and_binary_files_are_errors() {
    let e = error("");
    assert!(e.message.contains("empty"));
    let e = error("# only a comment\n");
    assert!(e.message.contains("empty"));
    let e = Scenario::parse("x.bin", "x", &[0x89, b'P', b'N', b'G', 0, 0xff, 0xfe]).unwrap_err();
    assert!(e.message.contains("binary"), "{e}");
    let e = Scenario::parse("x.bin", "x", b"action = \"mug\"\0\0").unwrap_err();
    assert!(e.message.contains("binary"), "{e}");
}

#[test]
fn action_options_must_be_used_by_the_action() {
    let e = error(&format!("{MUG}\n[action_options]\nhands = 1\n"));
    assert!(e.message.contains("not used by action `mug`"), "{e}");
    let grab = "action = \"grab_person\"\n[attacker]\nclass = \"fighter\"\n[victim]\nclass = \"fighter\"\n[action_options]\nhands = 3\n";
    assert!(error(grab).message.contains("expected 1 or 2"));
    assert!(parse(&grab.replace("hands = 3", "hands = 1")).is_ok());
}

#[test]
fn fights_read_their_action_options() {
    let text = "action = \"brawl\"\n[attacker]\nclass = \"fighter\"\n[victim]\nclass = \"fighter\"\nweapon = \"long sword\"\n[action_options]\nstyle = \"wrestle\"\nmax_rounds = 20\n";
    let s = parse(text).unwrap();
    let Some(Prepared::Fight(f)) = s.points[0].kept.as_deref() else {
        panic!()
    };
    assert_eq!(f.max_rounds(), 20);
    let e = error(&text.replace("style = \"wrestle\"", "style = \"martial_arts\""));
    assert!(e.message.contains("martial_arts"), "{e}");
    let e = error(&text.replace("style = \"wrestle\"", "hands = 1"));
    assert!(e.message.contains("not used by action `brawl`"), "{e}");
    let e = error(&text.replace("max_rounds = 20", "max_rounds = 0"));
    assert!(e.message.contains("max_rounds"), "{e}");
    let subdue = "action = \"subdue\"\n[attacker]\nclass = \"fighter\"\nweapon = \"mace\"\n[victim]\nmonster = \"ogre\"\n";
    assert!(error(subdue).message.contains("cannot be held back"));
    let e = error("action = \"mugg\"\n");
    assert_eq!(e.help.as_deref(), Some("did you mean `mug`?"));
}

#[test]
fn charts_are_checked_before_anything_runs() {
    let e = error(&format!("{MUG}\n[[chart]]\ny = \"p_knokout\"\n"));
    assert_eq!(e.help.as_deref(), Some("did you mean `p_knockout`?"));
    let ok = parse(&format!(
        "{MUG}\n[[chart]]\nx = \"level_gap\"\nfile = \"ko-by-gap\"\n"
    ))
    .unwrap();
    assert_eq!(ok.charts[0].file, "ko-by-gap");
    let e = error(&format!("{MUG}\n[[chart]]\nfile = \"../escape\"\n"));
    assert!(e.message.contains("plain name"));
}

#[test]
fn a_deep_sweep_path_sets_a_field_of_an_inline_weapon() {
    let text = "action = \"strike\"\n[attacker]\nclass = \"fighter\"\nweapon = \"long sword\"\n[victim]\nmonster = \"orc\"\n[sweep]\n\"attacker.weapon.magic\" = [0, 2]\n";
    let s = parse(text).unwrap();
    let Some(Prepared::Strike(plus_2)) = s.points[1].kept.as_deref() else {
        panic!()
    };
    assert_eq!(plus_2.damage_bonus, 2);
    assert_eq!(plus_2.damage.to_string(), "1d8");
}

#[test]
fn the_sha256_is_of_the_bytes() {
    let s = parse(MUG).unwrap();
    assert_eq!(s.sha256.len(), 64);
}

#[test]
fn the_text_is_kept_and_its_opening_comments_describe_it() {
    let text = format!(
        "\n# How often does a thief\n#   knock out an ogre?\n#\n# Levels 1-20.\n{MUG}# not this\n"
    );
    let s = parse(&text).unwrap();
    assert_eq!(s.text, text);
    assert_eq!(
        s.description(),
        ["How often does a thief knock out an ogre?", "Levels 1-20."]
    );
    assert!(parse(MUG).unwrap().description().is_empty());
}

/// Every shipped scenario, loaded.
fn shipped() -> Vec<Scenario> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files.iter().map(|f| Scenario::load(f).unwrap()).collect()
}

#[test]
fn the_charts_of_one_file_never_share_a_default_title() {
    for s in shipped() {
        for (i, c) in s.charts.iter().enumerate() {
            eprintln!("{}: {}", c.file, c.title);
            assert!(
                s.charts[..i].iter().all(|d| d.title != c.title),
                "{}: `{}` twice",
                s.file,
                c.title
            );
            assert!(c.title.starts_with(&s.title), "{}", c.title);
        }
    }
    let s = parse(&format!(
        "{MUG}\n[[chart]]\nfile = \"a\"\nat = {{ \"victim.monster\" = \"orc\" }}\n[[chart]]\nfile = \"b\"\nat = {{ \"victim.monster\" = \"ogre\" }}\n[[chart]]\nfile = \"c\"\nx = \"level_gap\"\nat = {{ \"victim.monster\" = \"ogre\" }}\n[[chart]]\nfile = \"d\"\ntitle = \"Mine\"\n"
    ))
    .unwrap();
    let titles: Vec<&str> = s.charts.iter().map(|c| c.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "Mugging an ogre sentry — knockout chance, victim monster orc",
            "Mugging an ogre sentry — knockout chance, victim monster ogre by attacker level",
            "Mugging an ogre sentry — knockout chance, victim monster ogre by level gap",
            "Mine"
        ]
    );
    // A file's only chart keeps the scenario's title.
    assert_eq!(
        parse(MUG).unwrap().charts[0].title,
        "Mugging an ogre sentry"
    );
}

#[test]
fn the_setting_says_what_every_point_holds_fixed() {
    let s = parse(MUG).unwrap();
    // The level and the monster are swept: the axes say them.
    assert_eq!(
        s.setting,
        "thief (club, behind) against the victim shown (unaware)"
    );
    for s in shipped() {
        eprintln!("{}: {}", s.stem, s.setting);
        assert!(s.setting.contains(" against "), "{}", s.setting);
    }
}

#[test]
fn chart_keys_are_checked_where_they_are_written() {
    let e = error(&format!(
        "{MUG}\n[[chart]]\nfile = \"a\"\ny_range = [10, 2]\n"
    ));
    assert_eq!(e.line, Some(MUG.lines().count() + 4), "{e}");
    assert!(
        e.message.contains("the low end must be below the high end"),
        "{e}"
    );
    let e = error(&format!("{MUG}\n[[chart]]\ny_scale = \"logarithmic\"\n"));
    assert!(
        e.message.contains("linear") && e.message.contains("log"),
        "{e}"
    );
    let e = error(&format!("{MUG}\n[[chart]]\nsize = \"poster\"\n"));
    assert!(e.message.contains("page"), "{e}");
    let e = error(&format!(
        "{MUG}\n[[chart]]\nkind = \"heatmap\"\ny = \"victim.monster\"\ny_range = [0, 5]\n"
    ));
    assert_eq!(e.help, None);
    assert!(e.message.contains("color_range"), "{e}");
    let ok = parse(&format!(
        "{MUG}\n[[chart]]\ncaption = \"The text's example is level 9.\"\nsize = \"screen\"\nsvg_text = \"paths\"\ny_range = [0, 50]\n"
    ))
    .unwrap();
    let c = &ok.charts[0];
    assert_eq!(c.caption.as_deref(), Some("The text's example is level 9."));
    assert_eq!((c.pixels, c.svg_text), ((1200, 800), chart::SvgText::Paths));
}

#[test]
fn a_field_read_by_one_variant_is_not_ignored_and_one_read_by_none_is_warned_once_where_it_is_set()
{
    // The mugging reads the thief's position and the victim's awareness; the sap reads only the position.
    let both = MUG.replace(
        "name = \"helmets\"\nrules = { helmets = true }",
        "name = \"sap\"\naction = \"sap\"",
    );
    assert!(parse(&both).unwrap().warnings.is_empty());
    // A sap alone: each field once, at its line, however many points reach it.
    let sap = MUG
        .replace("action = \"mug\"", "action = \"sap\"")
        .replace("\"victim.monster\" = [\"orc\", \"ogre\"]\n", "")
        .replace("monster = \"ogre\"", "monster = \"orc\"");
    let warnings = parse(&sap).unwrap().warnings;
    let said: Vec<(Option<usize>, &str)> = warnings
        .iter()
        .map(|w| (w.line, w.message.as_str()))
        .collect();
    assert_eq!(
        said,
        [(
            Some(15),
            "`victim.aware` is set, but action `sap` does not read it"
        )]
    );
    // A variant that sets it again is a place of its own, named by its own line.
    let variant = sap.replace(
        "rules = { helmets = true }",
        "rules = { helmets = true }\nvictim = { aware = true }",
    );
    let lines: Vec<Option<usize>> = parse(&variant)
        .unwrap()
        .warnings
        .iter()
        .map(|w| w.line)
        .collect();
    assert_eq!(lines, [Some(15), Some(26)]);
}

const THUGS: &str = r#"
action = "brawl"
trials = 100

[[attackers]]
name = "thug"
class = "fighter"
level = 2

[[attackers]]
name = "veteran"
class = "fighter"
level = 4
target = "weakest"

[[victims]]
name = "guard"
class = "fighter"
level = 3
weapon = "long sword"
"#;

#[test]
fn a_side_of_several_makes_every_fight_of_the_study_a_fight_of_sides() {
    let s = parse(&format!("{THUGS}[[variant]]\nname = \"two\"\n[[variant]]\nname = \"one\"\nattackers = {{ count = 1 }}\n")).unwrap();
    assert_eq!(s.action, Action::GangBrawl);
    assert_eq!(s.actions, [Action::GangBrawl, Action::GangBrawl]);
    assert!(s.points.iter().all(|p| p.action == Action::GangBrawl));
    assert!(matches!(
        s.points[0].kept.as_deref(),
        Some(Prepared::Gang(_))
    ));
    // The first attacker (level 2) against the first victim (level 3).
    assert_eq!(s.points[0].level_gap, -1);
}

#[test]
fn sides_of_one_keep_the_one_on_one_fight() {
    let text = THUGS.replacen(
        "[[attackers]]\nname = \"veteran\"\nclass = \"fighter\"\nlevel = 4\ntarget = \"weakest\"\n",
        "",
        1,
    );
    let s = parse(&text).unwrap();
    assert_eq!(s.action, Action::Brawl);
    assert_eq!(s.points[0].action, Action::Brawl);
    assert!(!matches!(
        s.points[0].kept.as_deref(),
        Some(Prepared::Gang(_))
    ));
}

#[test]
fn a_variant_sets_its_keys_on_every_entry_and_a_sweep_on_one() {
    let s = parse(&format!(
        "{THUGS}[sweep]\n\"attackers.2.count\" = [1, 3]\n[[variant]]\nname = \"all\"\nattackers = {{ level = 1, count = 2 }}\n"
    ))
    .unwrap();
    // At `attackers.2.count = 3` the variant's count of 2 is overridden on the veteran alone: 2 + 3.
    let b = Builder {
        source: &Source::spanless("t", ""),
        table: &toml::from_str(&format!("{THUGS}[sweep]\n\"attackers.2.count\" = [1, 3]\n"))
            .unwrap(),
        plural: [true, true],
        raw: toml::from_str(&format!("{THUGS}[sweep]\n\"attackers.2.count\" = [1, 3]\n")).unwrap(),
    };
    let mut overrides = Table::new();
    overrides.insert(
        "attackers".into(),
        toml::from_str::<Value>("t = { level = 1, count = 2 }").unwrap()["t"].clone(),
    );
    let sections = b.sections(Action::Brawl, &overrides);
    let axes = &s.axes;
    let (at, _) = b.at_point(Action::Brawl, &sections, axes, &[1]);
    let entries = b.entries(0, 0, &at.sides[0], axes, &[1]).unwrap();
    let counts: Vec<u32> = entries.iter().map(|e| e.count).collect();
    assert_eq!(counts, [2, 3]);
    assert!(
        entries
            .iter()
            .all(|e| e.fields.get("level") == Some(&Value::Integer(1)))
    );
    assert_eq!(entries[1].target, Target::Weakest);
}

#[test]
fn a_point_shares_each_side_it_sets_as_the_point_before_does() {
    // The victim's armor class changes every 20 points: the attacker's level, the last axis, runs fastest.
    let text = include_str!("../../scenarios/mugging-level-gap.toml");
    let text = text.split("[[chart]]").next().unwrap_or(text).replacen(
        "[sweep]\n",
        "[sweep]\n\"victim.ac\" = { from = -10, to = 15 }\n",
        1,
    );
    let s = parse(&text).unwrap();
    let sides = |i: usize| match &s.points[i].recipe {
        Ok(recipe) => recipe.sides.sides.clone(),
        Err(why) => panic!("{why}"),
    };
    let (mut shared, mut apart) = (0, 0);
    for i in 1..s.points.len() {
        let (before, now) = (sides(i - 1), sides(i));
        for (b, n) in before.iter().zip(&now) {
            // Shared exactly where they are the same: equal sides are one, different ones are apart.
            assert_eq!(std::sync::Arc::ptr_eq(b, n), b == n, "point {i}");
            if std::sync::Arc::ptr_eq(b, n) {
                shared += 1;
            } else {
                apart += 1;
            }
        }
    }
    // Every attacker differs from the one before; the victim, 25 times a variant and from one to the other.
    assert_eq!(s.points.len(), 2 * 26 * 20);
    assert_eq!(apart, s.points.len() - 1 + 2 * 25 + 1, "{shared} {apart}");
    assert_eq!(shared, s.points.len() - 1 - (2 * 25 + 1));
}
