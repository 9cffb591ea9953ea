/* A class whose base is in an anonymous namespace (googletest's fixtures),
   in a file with a marked loop: g++ warns of it (-Wsubobject-linkage)
   only in a header, and the copy's `#line 1 "FILE"` must not make FILE's
   own text read as one. */
namespace {
struct fixture {
  int runs = 0;
};
} // namespace

struct test_case : fixture {
  int run(int n)
  {
#pragma capture_window(1, 1)
    for (int i = 0; i < n; i++)
      runs++;
    return runs;
  }
};

int main()
{
  test_case t;
  return t.run(3) == 3 ? 0 : 1;
}
