// coal's own C++ on a robot scene, for `robot_compare.py --coal-cpp`: the
// pairwise loop and the DynamicAABBTreeCollisionManager with a pair filter in
// a C++ callback (which coal's Python bindings cannot take), collide (first
// colliding pair) and distance (least distance, first pair among ties), timed
// with steady_clock, no Python in the loop. Compiled against the headers and
// libcoal.so of the coal wheel in .venv (cmeel.prefix) and Debian's Eigen.
//
//     robot_coal SCENE.bin POSES.f64 CONFIGS REPEAT collide|distance ANSWERS.txt
//
// SCENE.bin (written by robot_compare.py, little-endian): u64 objects, u64
// pairs; per object u64 kind (0 sphere, 1 box, 2 cylinder, 3 capsule, 4 mesh)
// and f64 p[3] (radius | half extents | radius, length), a mesh then u64
// vertices, u64 triangles, f64 xyz per vertex, i32 triple per triangle; then
// u64 i, j per pair. POSES.f64: CONFIGS x objects x 3 x 4 f64, row-major.
// Prints "pairwise SECONDS" and "manager SECONDS" (the least of REPEAT runs
// over all configurations); ANSWERS.txt gets one line per configuration:
// pairwise then manager, each "answer pair calls candidates" (answer: the
// pair index or -1 in collide mode, the distance in distance mode).
#include <coal/BVH/BVH_model.h>
#include <coal/broadphase/broadphase_dynamic_AABB_tree.h>
#include <coal/collision.h>
#include <coal/distance.h>
#include <coal/shape/geometric_shapes.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <memory>
#include <vector>

using coal::CollisionObject;

struct Answer {
  double value = -1;
  long pair = -1, calls = 0, cands = 0;
};

static bool read_all(std::ifstream& in, void* p, size_t n) {
  in.read(static_cast<char*>(p), static_cast<std::streamsize>(n));
  return static_cast<bool>(in);
}

static std::shared_ptr<coal::CollisionGeometry> read_object(std::ifstream& in) {
  uint64_t kind = 0;
  double p[3];
  if (!read_all(in, &kind, 8) || !read_all(in, p, 24)) return nullptr;
  switch (kind) {
    case 0: return std::make_shared<coal::Sphere>(p[0]);
    case 1: return std::make_shared<coal::Box>(2 * p[0], 2 * p[1], 2 * p[2]);
    case 2: return std::make_shared<coal::Cylinder>(p[0], p[1]);
    case 3: return std::make_shared<coal::Capsule>(p[0], p[1]);
    case 4: {
      uint64_t nv = 0, nf = 0;
      if (!read_all(in, &nv, 8) || !read_all(in, &nf, 8)) return nullptr;
      std::vector<double> vs(3 * nv);
      std::vector<int32_t> fs(3 * nf);
      if (!read_all(in, vs.data(), 8 * vs.size()) || !read_all(in, fs.data(), 4 * fs.size())) return nullptr;
      std::vector<coal::Vec3s> v(nv);
      std::vector<coal::Triangle> t(nf);
      for (uint64_t i = 0; i < nv; ++i) v[i] = coal::Vec3s(vs[3 * i], vs[3 * i + 1], vs[3 * i + 2]);
      for (uint64_t i = 0; i < nf; ++i)
        t[i] = coal::Triangle(static_cast<coal::Triangle::index_type>(fs[3 * i]),
                              static_cast<coal::Triangle::index_type>(fs[3 * i + 1]),
                              static_cast<coal::Triangle::index_type>(fs[3 * i + 2]));
      auto m = std::make_shared<coal::BVHModel<coal::OBBRSS>>();
      m->beginModel(static_cast<unsigned>(nf), static_cast<unsigned>(nv));
      m->addSubModel(v, t);
      m->endModel();
      return m;
    }
    default: return nullptr;
  }
}

static int index_of(const CollisionObject* o) {
  return static_cast<int>(reinterpret_cast<intptr_t>(o->getUserData()));
}

// The broad phase's candidates go through the allowed-pair table; collide
// stops at the first colliding allowed pair.
struct FilteredCollide : coal::CollisionCallBackBase {
  const std::vector<long>* allowed = nullptr;
  long m = 0;
  coal::CollisionRequest req;
  coal::CollisionResult res;
  Answer ans;
  void init() override {}
  bool collide(CollisionObject* o1, CollisionObject* o2) override {
    ++ans.cands;
    long k = (*allowed)[index_of(o1) * m + index_of(o2)];
    if (k < 0) return false;
    ++ans.calls;
    res.clear();
    if (coal::collide(o1, o2, req, res)) {
      ans.pair = k;
      return true;
    }
    return false;
  }
};

struct FilteredDistance : coal::DistanceCallBackBase {
  const std::vector<long>* allowed = nullptr;
  long m = 0;
  coal::DistanceRequest req;
  coal::DistanceResult res;
  Answer ans;
  void init() override {}
  bool distance(CollisionObject* o1, CollisionObject* o2, coal::CoalScalar& dist) override {
    ++ans.cands;
    long k = (*allowed)[index_of(o1) * m + index_of(o2)];
    if (k >= 0) {
      ++ans.calls;
      res.clear();  // coal's distance returns at once if the result already holds a distance <= 0
      double d = coal::distance(o1, o2, req, res);
      if (d <= 0) {
        ans.value = 0;
        ans.pair = k;
        dist = 0;
        return true;
      }
      if (d < ans.value || (d == ans.value && k < ans.pair)) {
        ans.value = d;
        ans.pair = k;
      }
    }
    dist = ans.value;
    return false;
  }
};

int main(int argc, char** argv) {
  if (argc < 7) {
    std::fprintf(stderr, "usage: robot_coal SCENE.bin POSES.f64 CONFIGS REPEAT collide|distance ANSWERS.txt\n");
    return 2;
  }
  const bool dist_mode = std::strcmp(argv[5], "distance") == 0;
  const long n = std::atol(argv[3]);
  const int repeat = std::atoi(argv[4]);
  std::ifstream in(argv[1], std::ios::binary);
  uint64_t m = 0, np = 0;
  if (!read_all(in, &m, 8) || !read_all(in, &np, 8)) {
    std::fprintf(stderr, "%s: truncated\n", argv[1]);
    return 2;
  }
  std::vector<std::unique_ptr<CollisionObject>> objs;
  std::vector<CollisionObject*> ptrs;
  for (uint64_t i = 0; i < m; ++i) {
    auto g = read_object(in);
    if (!g) {
      std::fprintf(stderr, "%s: object %llu: bad or truncated\n", argv[1], static_cast<unsigned long long>(i));
      return 2;
    }
    objs.push_back(std::make_unique<CollisionObject>(g));
    objs.back()->setUserData(reinterpret_cast<void*>(static_cast<intptr_t>(i)));
    ptrs.push_back(objs.back().get());
  }
  std::vector<std::pair<long, long>> pairs(np);
  std::vector<long> allowed(m * m, -1);
  for (uint64_t k = 0; k < np; ++k) {
    uint64_t ij[2];
    if (!read_all(in, ij, 16) || ij[0] >= m || ij[1] >= m) {
      std::fprintf(stderr, "%s: pair %llu: bad or truncated\n", argv[1], static_cast<unsigned long long>(k));
      return 2;
    }
    pairs[k] = {static_cast<long>(ij[0]), static_cast<long>(ij[1])};
    allowed[ij[0] * m + ij[1]] = allowed[ij[1] * m + ij[0]] = static_cast<long>(k);
  }
  std::vector<double> poses(static_cast<size_t>(n) * m * 12);
  std::ifstream pin(argv[2], std::ios::binary);
  if (!read_all(pin, poses.data(), 8 * poses.size())) {
    std::fprintf(stderr, "%s: fewer than %ld configurations\n", argv[2], n);
    return 2;
  }

  auto set_poses = [&](long c, bool aabb) {
    for (uint64_t i = 0; i < m; ++i) {
      const double* P = &poses[(static_cast<size_t>(c) * m + i) * 12];
      coal::Matrix3s R;
      R << P[0], P[1], P[2], P[4], P[5], P[6], P[8], P[9], P[10];
      objs[i]->setTransform(R, coal::Vec3s(P[3], P[7], P[11]));
      if (aabb) objs[i]->computeAABB();
    }
  };
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<Answer> pw(n), mg(n);

  auto pairwise = [&]() {
    coal::CollisionRequest creq;
    coal::CollisionResult cres;
    coal::DistanceRequest dreq;
    coal::DistanceResult dres;
    for (long c = 0; c < n; ++c) {
      set_poses(c, false);
      Answer a;
      a.value = dist_mode ? inf : -1;
      for (long k = 0; k < static_cast<long>(np); ++k) {
        CollisionObject* o1 = ptrs[pairs[k].first];
        CollisionObject* o2 = ptrs[pairs[k].second];
        ++a.calls;
        if (!dist_mode) {
          cres.clear();
          if (coal::collide(o1, o2, creq, cres)) {
            a.pair = k;
            break;
          }
        } else {
          dres.clear();
          double d = coal::distance(o1, o2, dreq, dres);
          if (d <= 0) {
            a.value = 0;
            a.pair = k;
            break;
          }
          if (d < a.value) {
            a.value = d;
            a.pair = k;
          }
        }
      }
      pw[c] = a;
    }
  };

  for (auto* o : ptrs) o->computeAABB();
  coal::DynamicAABBTreeCollisionManager mgr;
  mgr.registerObjects(ptrs);
  mgr.setup();
  FilteredCollide fc;
  FilteredDistance fd;
  fc.allowed = fd.allowed = &allowed;
  fc.m = fd.m = static_cast<long>(m);
  auto manager = [&]() {
    for (long c = 0; c < n; ++c) {
      set_poses(c, true);
      mgr.update();
      if (!dist_mode) {
        fc.ans = Answer();
        mgr.collide(&fc);
        mg[c] = fc.ans;
      } else {
        fd.ans = Answer();
        fd.ans.value = inf;
        mgr.distance(&fd);
        mg[c] = fd.ans;
      }
    }
  };

  auto seconds = [](auto&& run) {
    auto t0 = std::chrono::steady_clock::now();
    run();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  // alternate the two so that a burst of load from other jobs hits both
  double best_pw = inf, best_mg = inf;
  for (int r = 0; r < repeat; ++r) {
    best_pw = std::min(best_pw, seconds(pairwise));
    best_mg = std::min(best_mg, seconds(manager));
  }
  std::printf("pairwise %.9g\nmanager %.9g\n", best_pw, best_mg);
  std::FILE* out = std::fopen(argv[6], "w");
  if (!out) {
    std::fprintf(stderr, "%s: cannot write\n", argv[6]);
    return 2;
  }
  for (long c = 0; c < n; ++c) {
    for (const Answer* a : {&pw[c], &mg[c]}) {
      if (dist_mode)
        std::fprintf(out, "%.17g %ld %ld %ld ", a->value, a->pair, a->calls, a->cands);
      else
        std::fprintf(out, "%ld %ld %ld %ld ", a->pair, a->pair, a->calls, a->cands);
    }
    std::fputc('\n', out);
  }
  std::fclose(out);
  return 0;
}
