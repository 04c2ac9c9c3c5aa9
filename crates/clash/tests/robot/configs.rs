//! Configurations files: one joint vector per line, errors naming the line.

use crate::common::panda;
use clash::robot::{ConfigsErrorKind, ConfigurationSampler, JointError, LimitCheck};

#[test]
fn round_trip_of_sampled_configurations_in_order() {
    let r = panda();
    let configs = ConfigurationSampler::new(&r, 9).sample_many(500);
    let mut text = String::from("# panda, 8 values per line\n\n");
    for (i, q) in configs.iter().enumerate() {
        let line: Vec<String> = q.iter().map(|v| format!("{v:?}")).collect();
        // Alternate separators, and a trailing comment now and then.
        let sep = if i % 2 == 0 { " " } else { ", " };
        text.push_str(&line.join(sep));
        text.push_str(if i % 3 == 0 { "  # note\n" } else { "\n" });
        if i % 7 == 0 {
            text.push_str("   \n# a comment line\n");
        }
    }
    let parsed = r.parse_configurations(&text, LimitCheck::Enforce).unwrap();
    assert_eq!(parsed, configs);

    let path = std::env::temp_dir().join(format!("clash_robot_configs_{}.txt", std::process::id()));
    std::fs::write(&path, &text).unwrap();
    assert_eq!(
        r.read_configurations(&path, LimitCheck::Enforce).unwrap(),
        configs
    );
    std::fs::remove_file(&path).unwrap();

    assert!(
        r.parse_configurations("", LimitCheck::Enforce)
            .unwrap()
            .is_empty()
    );
    assert!(
        r.parse_configurations("# nothing\n\n", LimitCheck::Enforce)
            .unwrap()
            .is_empty()
    );
}

#[test]
fn errors_name_the_line() {
    let r = panda();
    let ok = "0 0 0 -1 0 1 0 0.01";
    let at_line_3 = |bad: &str| {
        let text = format!("{ok}\n# comment\n{bad}\n{ok}\n");
        let e = r
            .parse_configurations(&text, LimitCheck::Enforce)
            .unwrap_err();
        assert_eq!(e.line(), Some(3), "{e}");
        assert!(e.to_string().starts_with("<memory>:3: "), "{e}");
        e
    };
    let e = at_line_3("0 0 0 -1 0 1 0");
    assert!(matches!(
        e.kind(),
        ConfigsErrorKind::Joint(JointError::WrongLength {
            expected: 8,
            found: 7
        })
    ));
    let e = at_line_3("0 0 0 -1 0 1 0 0.01 0");
    assert!(matches!(
        e.kind(),
        ConfigsErrorKind::Joint(JointError::WrongLength { found: 9, .. })
    ));
    let e = at_line_3("0 0 0 -1 0 1 zero 0.01");
    assert!(matches!(e.kind(), ConfigsErrorKind::BadNumber { token } if token == "zero"));
    let e = at_line_3("0 0 0 -1 0 1 0 NaN");
    assert!(
        matches!(e.kind(), ConfigsErrorKind::Joint(JointError::NonFinite { joint, .. }) if joint == "panda_finger_joint1")
    );
    let e = at_line_3("0 inf 0 -1 0 1 0 0.01");
    assert!(
        matches!(e.kind(), ConfigsErrorKind::Joint(JointError::NonFinite { joint, .. }) if joint == "panda_joint2")
    );
    // panda_joint4's upper limit is -0.0698: zero is outside.
    let e = at_line_3("0 0 0 0 0 1 0 0.01");
    assert!(
        matches!(e.kind(), ConfigsErrorKind::Joint(JointError::OutOfLimits { joint, .. }) if joint == "panda_joint4")
    );
    assert!(e.to_string().contains("panda_joint4"));
    // Unless limits are ignored; non-finite values never pass.
    let text = format!("{ok}\n0 0 0 0 0 1 0 0.5\n");
    let configs = r.parse_configurations(&text, LimitCheck::Ignore).unwrap();
    assert_eq!(configs.get(1).unwrap()[7], 0.5);
    assert!(
        r.parse_configurations("0 0 0 0 0 1 0 nan", LimitCheck::Ignore)
            .is_err()
    );

    let path = std::env::temp_dir().join(format!(
        "clash_robot_configs_bad_{}.txt",
        std::process::id()
    ));
    std::fs::write(&path, b"0 0 0 -1 0 1 0 0.01\n\xff\n").unwrap();
    let e = r
        .read_configurations(&path, LimitCheck::Enforce)
        .unwrap_err();
    assert!(matches!(e.kind(), ConfigsErrorKind::NotUtf8));
    assert_eq!(e.line(), Some(2));
    assert!(
        e.to_string()
            .starts_with(&format!("{}:2: ", path.display()))
    );
    std::fs::remove_file(&path).unwrap();
    let e = r
        .read_configurations(&path, LimitCheck::Enforce)
        .unwrap_err();
    assert!(matches!(e.kind(), ConfigsErrorKind::Io(_)));
}
