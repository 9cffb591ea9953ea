/* fork() in the body of a marked loop, inside and outside the window
   (issue 7, hostile d).

   The child is a copy of the process: it inherits the runtime's state -
   the loop's iteration count, the open window, the profiler's reference
   count, the NVTX tool and the record - but none of the parent's NVTX
   ranges, which belong to the parent's thread, and nsys traces it as a
   process of its own. Here each child marks `child` and leaves with
   _exit(), which runs no exit handler, so it emits nothing else; the
   parent waits for it and goes on. Outcome: the parent's events are
   exactly those of a run without fork, balanced, with one profiler
   start/stop pair; the child is a thread of its own in the record with
   its one mark. (A child that instead went on with the loop inside the
   window continues its copy: it pops the iteration that forked and, at
   the window's end, the window range - pops whose pushes are in the
   parent's process - then stops the profiler, in its own process, and
   prints its own exit self-check; a child that calls exit() inside the
   window stops the profiler from the exit handler, as in
   exit_in_window.c.) */
// cw-run:
// cw-thread: step#0( . ) S step[ step#1( . ) step#2( . ) ] E step#3(.)
// cw-thread: .child
// cw-thread: .child
#include "cw_test.h"
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
  int statuses = 0;
  fflush(stdout);
#pragma capture_window(1, 2)
  for (int i = 0; i < 4; i++) {
    cw_mark("step", i);
    if (i == 0 || i == 2) {
      pid_t child = fork();
      if (child == 0) {
        nvtxMarkA("child");
        _exit(10 + i);
      }
      int status = 0;
      waitpid(child, &status, 0);
      statuses += WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
  }
  printf("children exited with %d in all\n", statuses);
  return 0;
}
