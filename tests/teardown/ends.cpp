/* ends.cpp - one marked loop (window 14:5) that ends in step 15 as
   argv[1] says, for teardown_test.py:

     exit      exit(1)
     throw     an uncaught exception: std::terminate, abort(), SIGABRT
     wait      print "waiting at 15", then read stdin until a line or EOF,
               printing "handled N" when a handled signal came. The test
               sends its signal meanwhile, then "go".
     handled   the same, with the program's own SIGTERM handler installed
               before the loop (it counts, and returns)
     fork      fork a child that waits, kill it with SIGTERM, print how it
               ended, and go on

   Each step marks `step@i` (cw_test.h) and sleeps 1 ms. */
#include "cw_test.h"
#include <poll.h>
#include <signal.h>
#include <stdexcept>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t handled;

static void on_term(int) { handled++; }

/* A forked child, a copy inside the window, killed by SIGTERM. */
static void kill_a_child(void) {
  pid_t child = fork();
  if (child == 0) {
    for (;;) pause();
  }
  cw_sleep_us(100000); /* the child is in pause() */
  kill(child, SIGTERM);
  int status;
  waitpid(child, &status, 0);
  printf("child killed by %d\n", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  fflush(stdout);
}

/* Polls stdin every 10 ms, so that a signal handled at any moment (before
   a read or during one) is reported. */
static void wait_for_go(void) {
  printf("waiting at 15\n");
  fflush(stdout);
  int seen = 0;
  for (;;) {
    if (handled != seen) {
      seen = handled;
      printf("handled %d\n", seen);
      fflush(stdout);
    }
    struct pollfd in = {0, POLLIN, 0};
    char c;
    if (poll(&in, 1, 10) == 1 && (read(0, &c, 1) <= 0 || c == '\n')) break;
  }
}

int main(int argc, char **argv) {
  const char *how = argc > 1 ? argv[1] : "";
  if (strcmp(how, "handled") == 0) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_term;
    sigaction(SIGTERM, &action, NULL);
  }
#pragma capture_window(14, 5)
  for (int i = 0; i < 30; i++) {
    cw_mark("step", i);
    cw_sleep_us(1000);
    if (i != 15) continue;
    if (strcmp(how, "exit") == 0) exit(1);
    if (strcmp(how, "throw") == 0) throw std::runtime_error("step 15");
    if (strcmp(how, "fork") == 0)
      kill_a_child();
    else
      wait_for_go();
  }
  printf("done\n");
  return 0;
}
