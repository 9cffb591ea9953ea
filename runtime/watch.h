/*
 * watch.h - CAPTURE_WINDOW_WATCH=PATH: requests that `capture-window
 * trigger` writes to a file every rank can read (watch.c), and each
 * rank's answers beside it (answers.c). Never installed.
 *
 * A request is a small text file, written whole to a temporary file in
 * PATH's folder and renamed over PATH (so a reader sees the old file or
 * the new one, never a mix); the reader takes it only if it parses whole,
 * its last line "end":
 *
 *   capture-window request 1
 *   id=ID              [A-Za-z0-9_.-]{1,63}, new for each request
 *   at=STEP | align=N  exactly one
 *   count=C            optional (0 or absent: the loop's COUNT)
 *   label=L            optional (absent: every active loop)
 *   end
 *
 * How the loop thread learns of one without paying for it on every
 * iteration: the watcher publishes the request, then raises
 * cw_watch_generation, then lowers decide_at and head.attention_at of every
 * registered loop to 0, so that the loop's next iteration calls the runtime
 * (begin_slowly), which compares the generation with the loop's own
 * seen_watch and plans the window (cw_plan_watch). The loop thread itself
 * raises those fields whenever it plans (window.c's set_decide_at), which
 * could undo the watcher's store; so after its own stores it loads the
 * generation again, and lowers them itself if that moved. Every one of
 * these stores and loads is seq_cst, so they fall in one total order: if
 * the loop thread's load comes before the watcher's increment, its stores
 * come before the watcher's stores of 0, which then stand; if after, the
 * loop thread sees the new generation. Either way the next iteration
 * calls the runtime. The emitted code reads attention_at with a plain
 * load, as before: an aligned 8-byte load is single-copy atomic on the
 * 64-bit targets; on a 32-bit one a torn read can only make one iteration
 * call the runtime early or late, and the next read is whole.
 */
#ifndef CW_WATCH_H
#define CW_WATCH_H

#include <stdbool.h>

#include "internal.h"

#define CW_WATCH_ID_MAX 64 /* with its '\0' */

struct cw_loop;

struct cw_watch_request {
  char id[CW_WATCH_ID_MAX];
  long long at;                 /* -1: align instead */
  long long align;              /* 0: at instead */
  long long count;              /* 0: the loop's COUNT */
  char label[CW_LABEL_MAX + 1]; /* "": every loop */
};

/* watch.c */
extern unsigned int cw_watch_generation; /* requests published; 0: none yet */
void cw_watch_start(void);               /* at load: the watcher thread */
void cw_watch_register(struct cw_loop *loop);
void cw_watch_forget(struct cw_loop *loop);
/* The request published last and its generation. */
unsigned int cw_watch_current(struct cw_watch_request *request);
static inline bool cw_watch_pending(unsigned int seen) {
  return __atomic_load_n(&cw_watch_generation, __ATOMIC_SEQ_CST) != seen;
}
/* Parses TEXT (LEN bytes) as a whole request; false if it is not one. */
bool cw_watch_parse(const char *text, size_t len, struct cw_watch_request *request);

/* answers.c: PATH.answers/RANK, one line per event, each one write(2). */
void cw_answers_start(void);
void cw_answer_read(const struct cw_watch_request *request);
void cw_answer_seen(const struct cw_loop *loop, long long i, long long at, long long count);
void cw_answer_missed(const struct cw_loop *loop, long long i, long long at, const char *why);
void cw_answer_replaced(const struct cw_loop *loop, long long i, const char *by);
void cw_answer_opened(const struct cw_loop *loop, long long i);
void cw_answer_held(const struct cw_loop *loop, long long first, long long last);

#endif /* CW_WATCH_H */
