/*
 * kestog_ugi: KestoG (Kestutis Gasaitis's Russian draughts engine, in the
 * Linux port at github.com/maksimKorzh/KestoG) behind the subset of UGI
 * that `damas match` speaks, so that the match runner can play it.
 *
 * KestoG's source is not part of this repository: build.sh fetches it at a
 * pinned commit and compiles it into this file, which includes it whole
 * (its own main renamed, its console output sent to standard error).
 *
 * Understood: ugi, isready, setoption (Variant must be russian; others
 * ignored), uginewgame, position startpos|fen FEN [moves M...], go
 * movetime N | wtime/btime [winc/binc], quit. Squares are algebraic (a1 is
 * White's lower-left dark square); moves are written from-to, captures
 * with ':' and every landing square, as Damas writes Russian moves.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <time.h>

#define main kestog_main
#define printf(...) fprintf(stderr, __VA_ARGS__)
#include "KestoG.C"
#undef printf
#undef main

/* The four squares of each row KestoG numbers, from square 1 (b8) to 32. */
static const char *SQUARE[33] = {
    "xx", "b8", "d8", "f8", "h8", "a7", "c7", "e7", "g7",
    "b6", "d6", "f6", "h6", "a5", "c5", "e5", "g5",
    "b4", "d4", "f4", "h4", "a3", "c3", "e3", "g3",
    "b2", "d2", "f2", "h2", "a1", "c1", "e1", "g1"};

/* KestoG's board index (5..40) as its square number 1..32. */
static int number_of(int index) {
  int n = index - index / 9 - 5;
  int j = n % 4;
  n = n - j + (3 - j);
  return n + 1;
}

static const char *square_name(int index) { return SQUARE[number_of(index & 255)]; }

/* The move in Damas's text: from-to, or from:landing:...:to. */
static void move_text(const struct move2 *m, char *out) {
  int jumps = m->l - 2;
  if (jumps <= 0) {
    sprintf(out, "%s-%s", square_name(m->m[0]), square_name(m->m[1]));
    return;
  }
  strcpy(out, square_name(m->m[0]));
  for (int k = 1; k < jumps; k++) {
    strcat(out, ":");
    strcat(out, square_name(m->path[k]));
  }
  strcat(out, ":");
  strcat(out, square_name(m->m[1]));
}

static int board[46];
static int side = WHITE;
static volatile int stop_flag = 0;

static int legal_moves(struct move2 *list) {
  int n = Gen_Captures(board, list, side);
  if (!n) n = Gen_Moves(board, list, side);
  return n;
}

/* Plays `text` if it names one legal move (a capture given by its ends
 * only must be the only capture between them). */
static int play_text(const char *text) {
  struct move2 list[MAXMOVES];
  char mine[128];
  int n = legal_moves(list), found = -1;
  for (int i = 0; i < n; i++) {
    move_text(&list[i], mine);
    if (strcmp(mine, text) == 0) { found = i; break; }
  }
  if (found < 0) {
    /* The ends only: from:to. */
    for (int i = 0; i < n; i++) {
      move_text(&list[i], mine);
      const char *last = strrchr(mine, ':');
      if (!last) continue;
      char ends[16];
      snprintf(ends, sizeof ends, "%.2s:%s", mine, last + 1);
      if (strcmp(ends, text) == 0) {
        if (found >= 0) return 0;
        found = i;
      }
    }
  }
  if (found < 0) return 0;
  domove(board, &list[found]);
  side ^= CHANGECOLOR;
  return 1;
}

static const char *START =
    "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8";

/* Sets the board from a FEN of algebraic squares, kings prefixed by K. */
static int set_fen(const char *fen) {
  int b[8][8];
  memset(b, 0, sizeof b);
  if (fen[0] != 'W' && fen[0] != 'B') return 0;
  int color = fen[0] == 'W' ? WHITE : BLACK;
  const char *p = fen + 1;
  int piece_color = 0;
  while (*p) {
    if (*p == ':' || *p == ',' || *p == ' ') { p++; continue; }
    if (*p == 'W' && (p[-1] == ':')) { piece_color = WHITE; p++; continue; }
    if (*p == 'B' && (p[-1] == ':')) { piece_color = BLACK; p++; continue; }
    int kind = MAN;
    if (*p == 'K') { kind = KING; p++; }
    if (*p < 'a' || *p > 'h' || p[1] < '1' || p[1] > '8' || !piece_color) return 0;
    int file = *p - 'a', rank = p[1] - '1';
    if ((file + rank) % 2) return 0;
    /* KestoG's board[x][y] is Damas's board turned half a turn. */
    b[7 - file][7 - rank] = piece_color | kind;
    p += 2;
  }
  array_to_board(b, board);
  side = color;
  return 1;
}

static void reply(const char *s) { fputs(s, stdout); fputc('\n', stdout); fflush(stdout); }

static long number_after(const char *line, const char *key) {
  const char *at = strstr(line, key);
  if (!at) return -1;
  return strtol(at + strlen(key), NULL, 10);
}

/* The watchdog: raises KestoG's "play now" flag when the move's time is
 * up, unless the search has finished first. */
static pthread_mutex_t watch_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t watch_done = PTHREAD_COND_INITIALIZER;
static int searching = 0;

static void *watchdog(void *arg) {
  long ms = *(long *)arg;
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += ms / 1000;
  until.tv_nsec += (ms % 1000) * 1000000L;
  if (until.tv_nsec >= 1000000000L) { until.tv_sec++; until.tv_nsec -= 1000000000L; }
  pthread_mutex_lock(&watch_lock);
  while (searching) {
    if (pthread_cond_timedwait(&watch_done, &watch_lock, &until) != 0) {
      stop_flag = 1;
      break;
    }
  }
  pthread_mutex_unlock(&watch_lock);
  return NULL;
}

static void go(const char *line) {
  long ms = number_after(line, "movetime ");
  if (ms < 0) {
    long left = number_after(line, side == WHITE ? "wtime " : "btime ");
    long inc = number_after(line, side == WHITE ? "winc " : "binc ");
    if (left < 0) left = 1000;
    if (inc < 0) inc = 0;
    ms = left / 30 + inc;
  }
  struct move2 list[MAXMOVES];
  int n = legal_moves(list);
  if (n == 0) { reply("bestmove resign"); return; }
  /* KestoG starts no iteration past its budget and checks its clock only
   * between iterations; the watchdog interrupts the one running when the
   * move's time is up (less a margin for the reply), and KestoG then
   * plays its last finished iteration's move, as under CheckerBoard's
   * "play now". */
  long hard = ms - ms / 20 - 2;
  if (hard < 1) hard = 1;
  int budget = (int)(ms / 2);
  if (budget < 1) budget = 1;
  int copy[46];
  memcpy(copy, board, sizeof copy);
  stop_flag = 0;
  play = (int *)&stop_flag;
  searching = 1;
  pthread_t timer;
  int timed = pthread_create(&timer, NULL, watchdog, &hard) == 0;
  char out[256];
  compute(copy, side, budget, out);
  pthread_mutex_lock(&watch_lock);
  searching = 0;
  pthread_cond_signal(&watch_done);
  pthread_mutex_unlock(&watch_lock);
  if (timed) pthread_join(timer, NULL);
  /* compute plays its chosen move on the board it is given (its root
   * move variable is not trustworthy after an interruption): the move
   * played is the legal move that leads to the same board. */
  char text[128];
  int found = -1;
  for (int i = 0; i < n && found < 0; i++) {
    int after[46];
    memcpy(after, board, sizeof after);
    domove(after, &list[i]);
    if (memcmp(after, copy, sizeof after) == 0) found = i;
  }
  move_text(&list[found < 0 ? 0 : found], text);
  printf("bestmove %s\n", text);
  fflush(stdout);
}

int main(void) {
  char line[65536];
  Create_HashFunction();
  set_fen(START);
  setvbuf(stdout, NULL, _IOLBF, 0);
  while (fgets(line, sizeof line, stdin)) {
    line[strcspn(line, "\r\n")] = 0;
    if (strcmp(line, "ugi") == 0 || strcmp(line, "uci") == 0) {
      reply("id name KestoG 1.1 (kestog_ugi)");
      reply("id author Kestutis Gasaitis");
      reply("option name Variant type combo default russian var russian");
      reply("ugiok");
    } else if (strcmp(line, "isready") == 0) {
      reply("readyok");
    } else if (strncmp(line, "setoption", 9) == 0) {
      const char *v = strstr(line, "name Variant value ");
      if (v && strcmp(v + 19, "russian") != 0) reply("info string error only russian draughts");
    } else if (strcmp(line, "uginewgame") == 0) {
      set_fen(START);
    } else if (strncmp(line, "position ", 9) == 0) {
      char *moves = strstr(line, " moves ");
      if (moves) *moves = 0;
      int ok;
      if (strncmp(line + 9, "startpos", 8) == 0) ok = set_fen(START);
      else if (strncmp(line + 9, "fen ", 4) == 0) ok = set_fen(line + 13);
      else ok = 0;
      if (ok && moves) {
        char *tok = strtok(moves + 7, " ");
        while (tok && ok) { ok = play_text(tok); tok = strtok(NULL, " "); }
      }
      if (!ok) reply("info string error bad position");
    } else if (strncmp(line, "go", 2) == 0) {
      go(line);
    } else if (strcmp(line, "quit") == 0) {
      break;
    }
  }
  return 0;
}
