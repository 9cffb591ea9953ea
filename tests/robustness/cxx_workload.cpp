/*
 * cxx_workload.cpp - C++ that leans on what the plugin must see through:
 * templates (each instantiation its own loops), lambdas, range-for over
 * containers and initializer lists, `while (T v = ...)` conditions,
 * exceptions thrown out of loop bodies and caught outside, destructors
 * with loops, constexpr loops, std algorithms.  Built with every loop
 * instrumented, its output must equal the plain build's.
 */
#include <algorithm>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>
#include <cstdio>

template <typename T, int N>
struct Matrix {
  T a[N][N] = {};
  Matrix operator*(const Matrix &o) const {
    Matrix r;
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++)
        for (int k = 0; k < N; k++) r.a[i][j] += a[i][k] * o.a[k][j];
    return r;
  }
  T trace() const {
    T t{};
    int i = 0;
    do t += a[i][i]; while (++i < N);
    return t;
  }
};

constexpr long triangle(int n) {
  long s = 0;
  for (int i = 1; i <= n; i++) s += i;
  return s;
}
static_assert(triangle(10) == 55, "constexpr loop still folds");

struct Tokenizer {
  std::istringstream in;
  explicit Tokenizer(const std::string &s) : in(s) {}
  std::optional<std::string> next() {
    std::string w;
    if (in >> w) return w;
    return std::nullopt;
  }
};

struct Ledger {
  std::vector<int> entries;
  ~Ledger() {
    long sum = 0;
    for (int e : entries) sum += e;
    std::printf("ledger closed with %zu entries, sum %ld\n", entries.size(), sum);
  }
};

template <typename F>
int retry(F f, int attempts) {
  for (int i = 0; i < attempts; i++) {
    try {
      return f(i);
    } catch (const std::runtime_error &e) {
      std::printf("attempt %d failed: %s\n", i, e.what());
      continue;
    }
  }
  throw std::runtime_error("gave up");
}

template <typename Container>
auto total(const Container &c) {
  typename Container::value_type s{};
  for (const auto &x : c) s += x;
  return s;
}

int main() {
  Matrix<int, 3> m;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) m.a[i][j] = i + j;
  Matrix<double, 2> d;
  d.a[0][0] = 1.5; d.a[1][1] = 2.5; d.a[0][1] = 1;
  std::printf("traces %d %.2f triangle %ld\n", (m * m).trace(), (d * d).trace(), triangle(12));

  std::map<std::string, int> counts;
  Tokenizer tok("the cat and the dog and the bird");
  while (auto w = tok.next()) counts[*w]++;
  for (const auto &[word, n] : counts) std::printf("%s=%d ", word.c_str(), n);
  std::printf("\n");

  std::vector<int> v(20);
  std::iota(v.begin(), v.end(), -5);
  int evens = 0;
  std::for_each(v.begin(), v.end(), [&](int x) { for (int k = 0; k < 2; k++) evens += (x % 2 == 0); });
  std::sort(v.begin(), v.end(), [](int a, int b) { return std::abs(a) < std::abs(b) || (std::abs(a) == std::abs(b) && a < b); });
  for (int x : {v[0], v[1], v[2], v[19]}) std::printf("%d ", x);
  std::printf("evens %d totals %d %.1f %s\n", evens, total(v), total(std::vector<double>{0.5, 1.25}),
              total(std::vector<std::string>{"a", "b", "c"}).c_str());

  {
    Ledger ledger;
    try {
      for (int i = 0;; i++) {
        ledger.entries.push_back(i * i);
        if (i == 6) throw std::out_of_range("ledger full");
      }
    } catch (const std::exception &e) {
      std::printf("caught: %s\n", e.what());
    }
  }

  int got = retry([](int i) {
    int acc = 0;
    for (int k = 0; k <= i; k++) {
      acc += k;
      if (i < 2 && k == i) throw std::runtime_error("not yet " + std::to_string(acc));
    }
    return acc;
  }, 5);
  std::printf("retry gave %d\n", got);
  try {
    retry([](int) -> int { throw std::runtime_error("never"); }, 2);
  } catch (const std::exception &e) {
    std::printf("outer: %s\n", e.what());
  }

  auto owners = std::vector<std::unique_ptr<Ledger>>();
  for (int i = 0; i < 2; i++) {
    owners.push_back(std::make_unique<Ledger>());
    for (int k = 0; k < i + 2; k++) owners.back()->entries.push_back(k);
  }
  int n = 0;
  while (!owners.empty()) { owners.pop_back(); n++; }
  std::printf("released %d\n", n);
  return 0;
}
