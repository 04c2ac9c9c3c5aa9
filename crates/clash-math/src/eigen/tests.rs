use super::*;
use rand::{RngExt, SeedableRng};

fn check(m: &Matrix3<f64>, tol: f64) {
    let e = jacobi_eigen(m);
    let scale = m.abs().max().max(1e-300);
    // orthonormal, right-handed
    let vtv = e.vectors.transpose() * e.vectors;
    assert!(
        (vtv - Matrix3::identity()).abs().max() < 1e-12,
        "{m} -> not orthonormal"
    );
    assert!((e.vectors.determinant() - 1.0).abs() < 1e-12);
    // sorted
    assert!(e.values[0] >= e.values[1] && e.values[1] >= e.values[2]);
    // A v = lambda v
    for i in 0..3 {
        let v = e.vectors.column(i);
        let r = m * v - v * e.values[i];
        assert!(r.norm() <= tol * scale, "residual {} for {m}", r.norm());
    }
    // agrees with nalgebra's SymmetricEigen
    let mut ref_vals: Vec<f64> = m.symmetric_eigen().eigenvalues.iter().copied().collect();
    ref_vals.sort_by(|a, b| b.partial_cmp(a).unwrap());
    for i in 0..3 {
        assert!(
            (ref_vals[i] - e.values[i]).abs() <= tol * scale,
            "{ref_vals:?} vs {}",
            e.values
        );
    }
}

/// The closed form against Jacobi (an independent solver): orthonormal
/// right-handed vectors, sorted values within `tol * |m|`, and each
/// vector an eigenvector to within `tol * |m|`.
fn check_closed_form(m: &Matrix3<f64>, tol: f64) {
    let e = symmetric_eigen_closed_form(m);
    let j = jacobi_eigen(m);
    let scale = m.abs().max().max(1e-300);
    let vtv = e.vectors.transpose() * e.vectors;
    assert!(
        (vtv - Matrix3::identity()).abs().max() < 1e-12,
        "{m} -> not orthonormal"
    );
    assert!((e.vectors.determinant() - 1.0).abs() < 1e-12);
    assert!(e.values[0] >= e.values[1] && e.values[1] >= e.values[2]);
    for i in 0..3 {
        assert!(
            (e.values[i] - j.values[i]).abs() <= tol * scale,
            "{m:e}: {:e} vs jacobi {:e}",
            e.values,
            j.values
        );
        let v = e.vectors.column(i);
        let r = m * v - v * e.values[i];
        assert!(r.norm() <= tol * scale, "residual {} for {m}", r.norm());
    }
}

#[test]
fn closed_form_random_matrices() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    for _ in 0..20_000 {
        let b = Matrix3::from_fn(|_, _| rng.random_range(-10.0..10.0));
        check_closed_form(&(b + b.transpose()), 1e-9);
    }
}

/// Two matrices solved together give each the single solve's answer,
/// bit for bit, whatever the other is (including the degenerate cases:
/// non-finite, zero, a multiple of the identity).
#[test]
fn closed_form_pairs_match_single_solves() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
    let mut mats: Vec<Matrix3<f64>> = (0..40)
        .map(|_| {
            let b = Matrix3::from_fn(|_, _| rng.random_range(-10.0..10.0));
            b + b.transpose()
        })
        .collect();
    mats.extend([
        Matrix3::zeros(),
        Matrix3::identity() * 3.0,
        Matrix3::from_diagonal(&Vector3::new(3.0, -1.0, 3.0)),
        Matrix3::new(f64::NAN, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0),
        Matrix3::new(f64::INFINITY, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0),
    ]);
    for a in &mats {
        for b in &mats {
            let [ea, eb] = symmetric_eigen_closed_form_x2([a, b]);
            assert_eq!(bits(&ea), bits(&symmetric_eigen_closed_form(a)));
            assert_eq!(bits(&eb), bits(&symmetric_eigen_closed_form(b)));
        }
    }
}

/// The answer's bits: eigenvalues, then the vectors column by column. A
/// NaN counts as one value whatever its sign and payload (Rust leaves
/// those unspecified; only a matrix whose largest entry is below about
/// `1 / MAX`, where `1 / scale` overflows, has NaN eigenvalues).
fn bits<T: Scalar>(e: &SymmetricEigen3<T>) -> Vec<u64> {
    let bits = |x: &T| {
        let x = x.to_f64();
        if x.is_nan() { u64::MAX } else { x.to_bits() }
    };
    e.values.iter().chain(e.vectors.iter()).map(bits).collect()
}

/// Adversarial matrices for the paired solve, in `T`: random ones, every
/// case of [`for_each_scaled_matrix`] (repeated, zero and nearly equal
/// eigenvalues, rank 1, scales 1e-150 to 1e150), the same diagonal
/// (unrotated: the final rotation is the identity), multiples of the
/// identity (zero, signed zero, tiny, subnormal, huge, negative), a
/// subnormal and an overflowing scale, and a non-finite or extreme
/// value in each entry of the upper triangle.
fn paired_solve_matrices<T: Scalar>() -> Vec<Matrix3<T>> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(21);
    let mut mats: Vec<Matrix3<f64>> = (0..30)
        .map(|_| {
            let b = Matrix3::from_fn(|_, _| rng.random_range(-10.0..10.0));
            b + b.transpose()
        })
        .collect();
    let mut scaled = Vec::new();
    for_each_scaled_matrix(5, |m| scaled.push(*m));
    // A sample of them (all 7 scales, every kind).
    mats.extend(scaled.iter().step_by(23));
    for d in [
        Vector3::new(2.0, 2.0, -1.0),
        Vector3::new(3.0, -1.0, 3.0),
        Vector3::new(-1.0, 3.0, 3.0),
        Vector3::new(5.0, 0.0, 0.0),
        Vector3::new(0.0, 0.0, -5.0),
        Vector3::new(1.0, 2.0, 3.0),
        Vector3::new(3.0, 2.0, 1.0),
        Vector3::new(1.0, 1.0 + 1e-15, 1.0),
    ] {
        for scale in [1e-300, 1e-150, 1.0, 1e150, 1e300] {
            mats.push(Matrix3::from_diagonal(&(d * scale)));
        }
    }
    for x in [0.0, -0.0, 1.0, -2.5, 1e-300, 1e-310, 1e300, f64::MAX] {
        mats.push(Matrix3::identity() * x);
    }
    // Largest entry subnormal (its reciprocal overflows), and entries
    // whose squares overflow unscaled.
    mats.push(Matrix3::repeat(1e-320));
    mats.push(Matrix3::new(
        1e308, 1e308, 0.0, 1e308, -1e308, 1e308, 0.0, 1e308, 1e308,
    ));
    let base = Matrix3::new(1.0, 0.5, 0.25, 0.5, 2.0, 0.125, 0.25, 0.125, 3.0);
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, f64::MAX, 1e-310] {
        for (r, c) in [(0, 0), (1, 1), (2, 2), (0, 1), (0, 2), (1, 2)] {
            let mut m = base;
            m[(r, c)] = bad;
            m[(c, r)] = bad;
            mats.push(m);
        }
    }
    mats.into_iter().map(|m| m.map(T::lit)).collect()
}

/// [`closed_form_pairs_match_single_solves`] over every pair (both
/// orders, and each matrix with itself) of [`paired_solve_matrices`],
/// in `f64` (SSE2 lanes on x86_64) and `f32` (array lanes), so that
/// every degenerate branch is taken by one lane with the other lane
/// ordinary, degenerate in the same way, or degenerate in another way.
#[test]
fn closed_form_pairs_match_single_solves_adversarial() {
    fn run<T: Scalar>() {
        let mats = paired_solve_matrices::<T>();
        let single: Vec<_> = mats
            .iter()
            .map(|m| bits(&symmetric_eigen_closed_form(m)))
            .collect();
        for (a, sa) in mats.iter().zip(&single) {
            for (b, sb) in mats.iter().zip(&single) {
                let [ea, eb] = symmetric_eigen_closed_form_x2([a, b]);
                assert_eq!(&bits(&ea), sa, "{a:?} (with {b:?})");
                assert_eq!(&bits(&eb), sb, "{b:?} (with {a:?})");
            }
        }
    }
    run::<f64>();
    run::<f32>();
}

/// The degenerate cases of the paired solve keep the single solve's
/// answers: the identity basis (zero eigenvalues for non-finite input,
/// the multiple for a multiple of the identity).
#[test]
fn closed_form_pairs_degenerate_answers() {
    let ordinary = Matrix3::new(4.0, 1.0, 2.0, 1.0, 3.0, 0.5, 2.0, 0.5, 1.0);
    let nan = Matrix3::new(f64::NAN, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0);
    let flat = Matrix3::identity() * -2.5;
    for (m, values) in [
        (nan, Vector3::zeros()),
        (Matrix3::zeros(), Vector3::zeros()),
        (flat, Vector3::repeat(-2.5)),
    ] {
        for (pair, lane) in [([&m, &ordinary], 0), ([&ordinary, &m], 1)] {
            let e = symmetric_eigen_closed_form_x2(pair)[lane];
            assert_eq!(e.vectors, Matrix3::identity());
            assert_eq!(e.values, values);
        }
    }
}

#[test]
fn closed_form_adversarial_matrices() {
    check_closed_form(&Matrix3::zeros(), 1e-12);
    check_closed_form(&Matrix3::identity(), 1e-12);
    check_closed_form(
        &Matrix3::from_diagonal(&Vector3::new(3.0, -1.0, 3.0)),
        1e-12,
    );
    for_each_scaled_matrix(4, |m| check_closed_form(m, 1e-7));
    // non-finite input: still an orthonormal basis, no panic
    for bad in [f64::NAN, f64::INFINITY] {
        let e =
            symmetric_eigen_closed_form(&Matrix3::new(bad, 1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0));
        assert_eq!(e.vectors, Matrix3::identity());
    }
    // f32
    let m = Matrix3::new(4.0_f32, 1.0, 2.0, 1.0, 3.0, 0.5, 2.0, 0.5, 1.0);
    let e = symmetric_eigen_closed_form(&m);
    for i in 0..3 {
        let v = e.vectors.column(i);
        assert!((m * v - v * e.values[i]).norm() < 1e-4);
    }
}

fn random_rotation(rng: &mut impl rand::Rng) -> Matrix3<f64> {
    let axis = Vector3::new(
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
    );
    *nalgebra::Rotation3::new(axis * 3.0).matrix()
}

#[test]
fn random_symmetric_matrices() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    for _ in 0..20_000 {
        let b = Matrix3::from_fn(|_, _| rng.random_range(-10.0..10.0));
        check(&(b + b.transpose()), 1e-12);
    }
}

#[test]
fn adversarial_matrices() {
    check(&Matrix3::zeros(), 1e-12);
    check(&Matrix3::identity(), 1e-12);
    check(
        &Matrix3::from_diagonal(&Vector3::new(3.0, -1.0, 3.0)),
        1e-12,
    );
    for_each_scaled_matrix(2, |m| check(m, 1e-12));
}

/// At scales from 1e-150 to 1e150: random rank-1 matrices and rotated
/// diagonals with repeated (two and three equal), zero, nearly equal and
/// tiny eigenvalues.
fn for_each_scaled_matrix(seed: u64, mut f: impl FnMut(&Matrix3<f64>)) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    for scale in [1e-150, 1e-30, 1e-6, 1.0, 1e6, 1e30, 1e150] {
        for _ in 0..200 {
            let r = random_rotation(&mut rng);
            let v = Vector3::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            );
            f(&(v * v.transpose() * scale));
            for d in [
                Vector3::new(2.0, 2.0, -1.0),
                Vector3::new(1.0, 1.0, 1.0),
                Vector3::new(5.0, 0.0, 0.0),
                Vector3::new(1.0, 1e-9, 1e-9),
                Vector3::new(1.0, 1.0 + 1e-9, 0.5),
                Vector3::new(0.0, 1e-12, -1e-12),
            ] {
                let m = r * Matrix3::from_diagonal(&(d * scale)) * r.transpose();
                f(&((m + m.transpose()) * 0.5));
            }
        }
    }
}

#[test]
fn f32_decomposition() {
    let m = Matrix3::new(4.0_f32, 1.0, 2.0, 1.0, 3.0, 0.5, 2.0, 0.5, 1.0);
    let e = jacobi_eigen(&m);
    for i in 0..3 {
        let v = e.vectors.column(i);
        assert!((m * v - v * e.values[i]).norm() < 1e-5);
    }
    assert!(e.sweeps <= 10);
}

#[test]
fn non_finite_input_terminates() {
    let e = jacobi_eigen(&Matrix3::new(
        f64::NAN,
        1.0,
        0.0,
        1.0,
        1.0,
        0.0,
        0.0,
        0.0,
        1.0,
    ));
    assert!(e.sweeps <= MAX_SWEEPS);
    let e = jacobi_eigen(&Matrix3::new(
        f64::INFINITY,
        1.0,
        0.0,
        1.0,
        1.0,
        0.0,
        0.0,
        0.0,
        1.0,
    ));
    assert!(e.sweeps <= MAX_SWEEPS);
}
