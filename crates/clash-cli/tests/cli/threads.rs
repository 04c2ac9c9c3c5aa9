//! `--threads` beyond a few threads per core is lowered to that limit with
//! a note, instead of starting that many OS threads; the answers are those
//! of any other thread count.

use crate::common::*;

#[test]
fn a_huge_thread_count_is_capped_with_a_note() {
    let dir = scratch("threads");
    let bunny = shipped("bunny_lo.stl");
    let poses = dir.join("poses.txt");
    write_poses(&poses, &random_poses(200, 0.1, 4));
    let cores = std::thread::available_parallelism().unwrap().get();
    let limit = 4 * cores;
    let run = |threads: usize| {
        let run = clash()
            .arg("collide")
            .arg(&bunny)
            .arg(&bunny)
            .arg("--poses")
            .arg(&poses)
            .args(["--count", "--threads", &threads.to_string()])
            .timeout(std::time::Duration::from_secs(120))
            .assert()
            .success();
        let out = run.get_output();
        (
            String::from_utf8(out.stdout.clone()).unwrap(),
            String::from_utf8(out.stderr.clone()).unwrap(),
        )
    };
    let (one, stderr) = run(1);
    assert!(!stderr.contains("note"), "{stderr}");
    for requested in [limit + 1, 100_000] {
        let (answers, stderr) = run(requested);
        assert_eq!(
            answers, one,
            "the answers do not depend on the thread count"
        );
        assert!(
            stderr.contains(&format!(
                "clash: note: --threads {requested} is more than 4 per core; using {limit} ({cores} cores here"
            )),
            "{stderr}"
        );
        assert!(
            stderr.contains(&format!("poses/s, {limit} threads)")),
            "{stderr}"
        );
    }
    let (answers, stderr) = run(limit);
    assert_eq!(answers, one);
    assert!(!stderr.contains("note"), "{stderr}");
    // Every command with a pool caps it.
    let run = clash()
        .arg("build")
        .arg(&bunny)
        .arg("-o")
        .arg(dir.join("b.clash"))
        .args(["--threads", "100000"])
        .timeout(std::time::Duration::from_secs(120))
        .assert()
        .success();
    let stderr = String::from_utf8(run.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains(&format!("using {limit}")), "{stderr}");
    // The help says so.
    let run = clash().args(["distance", "--help"]).assert().success();
    let help = String::from_utf8(run.get_output().stdout.clone()).unwrap();
    let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(
            "At most 4 per core: a larger number is lowered to that, with a note on stderr"
        ),
        "{help}"
    );
}
