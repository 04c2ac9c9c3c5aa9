// coal's own C++ builds of one mesh, like for like with clash's: BVHModel<OBB>
// (against clash's OBB tree), BVHModel<RSS> (against clash's RSS tree) and
// BVHModel<OBBRSS> (what python-fcl and coal's Python models build). Reads the
// arrays `fcl_build.py --coal-cpp` writes to out/mesh.bin (vertex and triangle
// counts as u64, then the vertices as f64 triples and the triangles as i32
// triples; trimesh's merged vertices), so every tool builds the same vertices
// and triangles. Compiled and run by `fcl_build.py --coal-cpp`, against the
// headers and libcoal.so of the coal wheel in .venv (cmeel.prefix) and
// Debian's Eigen headers.
//
//     coal_build MESH.bin REPEAT
#include <coal/BVH/BVH_model.h>
#include <chrono>
#include <cstdio>
#include <cstdint>
#include <fstream>
#include <memory>
#include <vector>

template <typename BV>
double fastest(const std::vector<coal::Vec3s>& v, const std::vector<coal::Triangle>& t, int repeat) {
  double best = 1e300;
  for (int r = 0; r < repeat; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    auto m = std::make_unique<coal::BVHModel<BV>>();
    m->beginModel((unsigned)t.size(), (unsigned)v.size());
    m->addSubModel(v, t);
    m->endModel();
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    // Freed after the clock stops, as build_profile drops its trees.
    m.reset();
    if (ms < best) best = ms;
  }
  return best;
}

int main(int argc, char** argv) {
  if (argc < 3) { std::fprintf(stderr, "usage: coal_build MESH.bin REPEAT\n"); return 2; }
  std::ifstream in(argv[1], std::ios::binary);
  uint64_t nv = 0, nf = 0;
  in.read(reinterpret_cast<char*>(&nv), 8);
  in.read(reinterpret_cast<char*>(&nf), 8);
  std::vector<double> vs(3 * nv);
  std::vector<int32_t> fs(3 * nf);
  in.read(reinterpret_cast<char*>(vs.data()), 8 * 3 * nv);
  in.read(reinterpret_cast<char*>(fs.data()), 4 * 3 * nf);
  if (!in) { std::fprintf(stderr, "%s: truncated\n", argv[1]); return 1; }
  std::vector<coal::Vec3s> v(nv);
  for (uint64_t i = 0; i < nv; ++i) v[i] = coal::Vec3s(vs[3 * i], vs[3 * i + 1], vs[3 * i + 2]);
  std::vector<coal::Triangle> t(nf);
  for (uint64_t i = 0; i < nf; ++i) t[i] = coal::Triangle(fs[3 * i], fs[3 * i + 1], fs[3 * i + 2]);
  int repeat = std::atoi(argv[2]);
  std::printf("coal C++ builds of %llu triangles (%llu vertices), fastest of %d: OBB %.1f ms, RSS %.1f ms, OBBRSS %.1f ms\n",
              (unsigned long long)nf, (unsigned long long)nv, repeat,
              fastest<coal::OBB>(v, t, repeat), fastest<coal::RSS>(v, t, repeat),
              fastest<coal::OBBRSS>(v, t, repeat));
}
