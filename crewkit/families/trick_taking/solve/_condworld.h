/* The position mission conditions read (condeval.h), as both solver searches (_native.c, _adversarial.c) give it:
 * the view's tasks are the game's (not the compiled conditions' cards), pending has a bit per such task not done.
 * Included after u64, popcount and MAXC are defined. */
#ifndef CREWKIT_CONDWORLD_H
#define CREWKIT_CONDWORLD_H
#define MAXS 8 /* seats */
#define MAXSUIT 16
#define MAXTR 32
#define MAXCOND 64
#define MAXL 64
#define MAXVARS 16
#define MAXPART 8
typedef struct {
    int n, nplays, ntr, ntasks;
    u64 hands[MAXS];
    int play_card[MAXS];
    int won_count[MAXS];
    const u64 *task_bits;
    const int *task_owner;
    u64 pending;
} World;
#include "../bots/condeval.h"
#endif
