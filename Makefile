# Banyan - a Monte Carlo Tree Search engine. See `make help`.
#
# Outputs go to build/<mode>/ (release, debug, or the sanitizer list), so
# builds of different kinds never mix objects.

CC      ?= cc
PREFIX  ?= /usr/local
WERROR  ?=
sanitize ?=

WARN    = -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Wpedantic -Wshadow \
          -Wstrict-prototypes -Wmissing-prototypes -Wundef -Wwrite-strings \
          -Wconversion -Wno-sign-conversion $(if $(WERROR),-Werror)
INCS    = -Iinclude -Isrc -Iproto -Igames -Inet -Iweb -Idist -Ios

# The learning part (net/) multiplies its matrices with OpenBLAS where the
# build machine has it (Debian libopenblas-dev), else with its own plain C:
# BLAS=openblas or BLAS=none chooses; the default looks with pkg-config.
# The core library never links BLAS.
BLAS ?= $(shell pkg-config --exists openblas 2>/dev/null && echo openblas || echo none)
ifeq ($(BLAS),openblas)
  NET_CFLAGS = -DBANYAN_BLAS $(shell pkg-config --cflags openblas)
  NET_LIBS   = $(shell pkg-config --libs openblas)
endif

# The web board (web/, `banyan serve`) is built on libmicrohttpd and jansson
# where pkg-config finds them (Debian libmicrohttpd-dev, libjansson-dev);
# WEB=yes or WEB=no chooses. Without them web/none.c stands in and says
# what to install.
WEB ?= $(shell pkg-config --exists libmicrohttpd jansson 2>/dev/null && echo yes || echo no)
ifeq ($(WEB),yes)
  WEB_CFLAGS = $(shell pkg-config --cflags libmicrohttpd jansson)
  WEB_LIBS   = $(shell pkg-config --libs libmicrohttpd jansson)
endif

# The distributed layer (dist/: mpirun -np N banyan ...) is built on MPI
# where pkg-config finds it (Debian libopenmpi-dev, or libmpich-dev); MPI=yes
# or MPI=no chooses. Without it dist/none.c stands in: one rank, and
# `banyan --version` says what to install. The tests run under mpirun
# without LeakSanitizer (tests/cli/mpi_search.sh): the MPI library's own
# memory still held at exit would fill its report.
# LeakSanitizer's report; the release pass runs the distributed tests.
MPI ?= $(shell pkg-config --exists mpi-c 2>/dev/null && echo yes || echo no)
MPI_PC = $(shell pkg-config --exists mpi-c 2>/dev/null && echo mpi-c || echo mpich)
ifeq ($(MPI),yes)
  MPI_CFLAGS = $(shell pkg-config --cflags $(MPI_PC))
  MPI_LIBS   = $(shell pkg-config --libs $(MPI_PC))
  DIST_OBJ   = $(B)/dist/comm.o $(B)/dist/dsearch.o
else
  DIST_OBJ   = $(B)/dist/none.o $(B)/dist/dsearch.o
endif

ifneq ($(sanitize),)
  MODE  = san-$(subst $(comma),-,$(sanitize))
  OPT   = -O1 -g -fno-omit-frame-pointer -fsanitize=$(sanitize) -fno-sanitize-recover=all \
          -DBANYAN_DEBUG
  LDSAN = -fsanitize=$(sanitize)
else ifeq ($(DEBUG),1)
  MODE  = debug
  OPT   = -O0 -g -DBANYAN_DEBUG
else
  MODE  = release
  OPT   = -O2 -DNDEBUG
endif
comma := ,

VERSION := $(shell sed -n 's/.*BANYAN_VERSION "\(.*\)"/\1/p' include/banyan.h)
SONAME   = libbanyan.so.$(firstword $(subst ., ,$(VERSION)))

B       = build/$(MODE)
CFLAGS  += $(WARN) $(OPT) $(INCS) -fPIC -pthread -fvisibility=hidden
LDFLAGS += $(LDSAN) -pthread
LDLIBS  += -lm

# The Gomoku module's line-pattern tables and Go's 3x3 pattern bits are
# written at build time by their generators (games/gomoku/gen_tables.c says
# why), then compiled like sources.
GMK_TABLES = $(B)/games/gomoku/tables.c
GO_TABLES  = $(B)/games/go/pattern_bits.c
GEN_TABLES = $(GMK_TABLES) $(GO_TABLES)
LIB_SRC   = $(wildcard src/*.c) $(wildcard games/*.c) $(GEN_TABLES) \
            $(filter-out games/gomoku/gen_tables.c,$(wildcard games/gomoku/*.c)) \
            $(wildcard games/othello/*.c) \
            $(filter-out games/go/gen_patterns.c,$(wildcard games/go/*.c))
TOOL_SRC  = $(wildcard program/*.c) $(wildcard proto/*.c)
# The platform layer (os/os.h): os/posix.c here, os/win.c in `make windows`.
# It goes into libbanyan_net.a with the learning part, the archive of the
# modules that every program linking the front-ends takes.
OS_SRC    = os/posix.c
NET_SRC   = $(wildcard net/*.c) $(OS_SRC)
NET_OBJ   = $(NET_SRC:%.c=$(B)/%.o)
PROTO_OBJ = $(patsubst %.c,$(B)/%.o,$(wildcard proto/*.c))
TEST_SRC  = $(wildcard tests/unit/*.c)
FUZZ_SRC  = $(wildcard tests/fuzz/*.c)
FORMAT_SRC = include/*.h src/*.[ch] games/*.[ch] games/gomoku/*.[ch] games/othello/*.[ch] \
             games/go/*.[ch] program/*.[ch] proto/*.[ch] net/*.[ch] web/*.[ch] dist/*.[ch] os/*.[ch] \
             tests/unit/*.[ch] tests/fuzz/*.c tests/extra/*.c \
             examples/*.c bench/*.c tools/*.c
LIB_OBJ   = $(patsubst %.c,$(B)/%.o,$(filter-out $(GEN_TABLES),$(LIB_SRC))) $(GEN_TABLES:.c=.o)
TOOL_OBJ  = $(TOOL_SRC:%.c=$(B)/%.o)
TEST_OBJ  = $(TEST_SRC:%.c=$(B)/%.o)

# The page's files, embedded in the program (web/gen_assets.c).
WEB_ASSETS   = web/assets/index.html web/assets/app.js web/assets/style.css web/assets/favicon.svg
WEB_ASSETS_C = $(B)/web/assets.c
ifeq ($(WEB),yes)
  WEB_OBJ = $(B)/web/api.o $(B)/web/server.o $(B)/web/assets.o
else
  WEB_OBJ = $(B)/web/none.o
endif

FUZZ_TARGETS = game gtp gomocup record model data morpion share $(if $(filter yes,$(WEB)),web)
FUZZ_REPLAY  = $(FUZZ_TARGETS:%=$(B)/fuzz-%)
BANYAN    = $(B)/banyan
MAN       = $(B)/man/banyan.1
UNIT      = $(B)/unit
EXAMPLE   = $(B)/example-planner
EXAMPLE_TSPTW = $(B)/example-tsptw

.PHONY: man dist all debug test check check-all check-build bench-programs unit tsan bench format format-check install uninstall clean help \
        headers fuzz

all: $(BANYAN) $(B)/libbanyan.a $(B)/libbanyan.so $(EXAMPLE) $(EXAMPLE_TSPTW) $(MAN)

debug:
	$(MAKE) DEBUG=1 all

# Compiler lines are shown in short unless V=1.
ifeq ($(V),1)
  Q =
  SAY = @true
else
  Q = @
  SAY = @printf '  %-6s %s\n'
endif

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(SAY) CC $<
	$(Q)$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(B)/libbanyan.a: $(LIB_OBJ)
	$(SAY) AR $@
	$(Q)rm -f $@
	$(Q)$(AR) rcs $@ $^

# The shared library exports the banyan_* names and nothing else, whatever
# the objects' visibility: src/banyan.map is the list. The games are compiled
# with default visibility, so that their tables can be exported, and need no
# visibility macros; their shared internal functions stay local to the .so.
# The shared library is libbanyan.so.VERSION with the SONAME libbanyan.so.MAJOR;
# libbanyan.so (for linking) and libbanyan.so.MAJOR (for running) link to it.
$(B)/libbanyan.so.$(VERSION): $(LIB_OBJ) src/banyan.map
	$(SAY) LD $@
	$(Q)$(CC) -shared $(LDFLAGS) -Wl,--version-script=src/banyan.map -Wl,-soname,$(SONAME) \
	  -o $@ $(LIB_OBJ) $(LDLIBS)

$(B)/libbanyan.so: $(B)/libbanyan.so.$(VERSION)
	$(Q)ln -sf libbanyan.so.$(VERSION) $(B)/$(SONAME)
	$(Q)ln -sf libbanyan.so.$(VERSION) $@

$(B)/games/%.o: CFLAGS += -fvisibility=default
$(B)/net/%.o: CFLAGS += $(NET_CFLAGS)

$(B)/libbanyan_net.a: $(NET_OBJ)
	$(SAY) AR $@
	$(Q)rm -f $@
	$(Q)$(AR) rcs $@ $^

# The generator of the Gomoku prover's tables, and the tables (see LIB_SRC),
# written under a temporary name and then moved, so that no build ever sees
# half a file. `make fuzz` compiles LIB_SRC itself, so it needs them first.
$(B)/games/gomoku/gen_tables: games/gomoku/gen_tables.c games/gomoku/gomoku.h include/banyan_game.h
	@mkdir -p $(dir $@)
	$(SAY) LD $@
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ games/gomoku/gen_tables.c $(LDLIBS)

$(GMK_TABLES): $(B)/games/gomoku/gen_tables
	$(SAY) GEN $@
	$(Q)$< $@.tmp && mv $@.tmp $@

$(GMK_TABLES:.c=.o): $(GMK_TABLES)
	$(SAY) CC $<
	$(Q)$(CC) $(CFLAGS) -Igames/gomoku -MMD -MP -c $< -o $@

# Go's pattern bits, made the same way.
$(B)/games/go/gen_patterns: games/go/gen_patterns.c
	@mkdir -p $(dir $@)
	$(SAY) LD $@
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ games/go/gen_patterns.c $(LDLIBS)

$(GO_TABLES): $(B)/games/go/gen_patterns
	$(SAY) GEN $@
	$(Q)$< $@.tmp && mv $@.tmp $@

$(GO_TABLES:.c=.o): $(GO_TABLES)
	$(SAY) CC $<
	$(Q)$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

fuzz: $(GEN_TABLES) $(if $(filter yes,$(WEB)),$(WEB_ASSETS_C))

# --version names the compiler that built the program.
$(B)/program/main.o: CFLAGS += -DBANYAN_COMPILER='"$(subst ',,$(shell $(CC) --version 2>/dev/null | head -1))"'

$(BANYAN): $(TOOL_OBJ) $(WEB_OBJ) $(DIST_OBJ) $(B)/libbanyan_net.a $(B)/libbanyan.a
	$(SAY) LD $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $(TOOL_OBJ) $(WEB_OBJ) $(DIST_OBJ) $(B)/libbanyan_net.a \
	  $(B)/libbanyan.a $(NET_LIBS) $(WEB_LIBS) $(MPI_LIBS) $(LDLIBS)

$(B)/dist/comm.o: CFLAGS += $(MPI_CFLAGS)

# The manual page banyan(1), written from the program's own --help by
# tools/man.sh, so that it says what the help says (make man).
man: $(MAN)
$(MAN): $(BANYAN) tools/man.sh CHANGELOG.md
	@mkdir -p $(dir $@)
	$(SAY) MAN $@
	$(Q)tools/man.sh $(BANYAN) > $@.tmp && mv $@.tmp $@

# The web board's objects see libmicrohttpd's and jansson's headers; its
# page is written into a C file by a generator built first.
$(B)/web/%.o: CFLAGS += $(WEB_CFLAGS)
$(B)/web/gen_assets: web/gen_assets.c
	@mkdir -p $(dir $@)
	$(SAY) LD $@
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LDLIBS)

$(WEB_ASSETS_C): $(B)/web/gen_assets $(WEB_ASSETS)
	$(SAY) GEN $@
	$(Q)$< $@.tmp $(WEB_ASSETS) && mv $@.tmp $@

$(WEB_ASSETS_C:.c=.o): $(WEB_ASSETS_C)
	$(SAY) CC $<
	$(Q)$(CC) $(CFLAGS) $(WEB_CFLAGS) -MMD -MP -c $< -o $@

# The program with one more game, which lives in tests/extra/ only: its
# registry stands in for the library's, so no front-end file knows the game
# (tests/cli/extra.sh plays it through GTP, the referee and game records).
EXTRA_OBJ = $(patsubst %.c,$(B)/%.o,$(filter-out tests/extra/abi_caller.c,$(wildcard tests/extra/*.c)))
$(B)/banyan-extra: $(TOOL_OBJ) $(EXTRA_OBJ) $(WEB_OBJ) $(DIST_OBJ) $(B)/libbanyan_net.a \
                  $(B)/libbanyan.a
	$(SAY) LD $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $(TOOL_OBJ) $(EXTRA_OBJ) $(WEB_OBJ) $(DIST_OBJ) \
	  $(B)/libbanyan_net.a $(B)/libbanyan.a $(NET_LIBS) $(WEB_LIBS) $(MPI_LIBS) $(LDLIBS)

# The unit tests also cover the match statistics of program/stats.c and the
# game record of proto/record.c.
$(UNIT): $(TEST_OBJ) $(B)/program/stats.o $(B)/proto/record.o $(B)/libbanyan_net.a \
         $(B)/libbanyan.a
	$(SAY) LD $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $(TEST_OBJ) $(B)/program/stats.o $(B)/proto/record.o \
	  $(B)/libbanyan_net.a $(B)/libbanyan.a $(NET_LIBS) $(LDLIBS)

# Fuzz targets: a replay binary for `make test`, and libFuzzer binaries for
# `make fuzz` (clang). Saved inputs live in tests/fuzz/corpus/<target>/.
$(B)/fuzz-%: $(B)/tests/fuzz/fuzz_%.o $(B)/tests/fuzz/fuzz_main.o $(PROTO_OBJ) $(B)/libbanyan_net.a \
             $(B)/libbanyan.a
	$(SAY) LD $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(NET_LIBS) $(LDLIBS)

# The web board's target drives its request handling (api.c) with jansson,
# on one rank (dist/none.c: no MPI).
$(B)/fuzz-web: $(B)/tests/fuzz/fuzz_web.o $(B)/tests/fuzz/fuzz_main.o $(B)/web/api.o \
               $(B)/web/assets.o $(B)/dist/none.o $(B)/dist/dsearch.o $(PROTO_OBJ) \
               $(B)/libbanyan_net.a $(B)/libbanyan.a
	$(SAY) LD $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(NET_LIBS) $(WEB_LIBS) $(LDLIBS)
$(B)/tests/fuzz/fuzz_web.o: CFLAGS += $(WEB_CFLAGS)

FUZZ_FLAGS = -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
fuzz:
	@mkdir -p build/fuzz
	for t in $(FUZZ_TARGETS); do \
	  web=; [ $$t = web ] && web="web/api.c dist/none.c dist/dsearch.c $(WEB_ASSETS_C) $(WEB_CFLAGS) $(WEB_LIBS)"; \
	  clang $(WARN) $(INCS) -pthread $(FUZZ_FLAGS) -o build/fuzz/fuzz-$$t tests/fuzz/fuzz_$$t.c \
	    $(LIB_SRC) $(wildcard proto/*.c) $(NET_SRC) $$web -lm || exit 1; done
	@echo "run: build/fuzz/fuzz-TARGET -max_total_time=600 tests/fuzz/corpus/TARGET"

# Connect Four's solver on the reference sets (bench/connect4_solve.sh). It
# includes the game's source for the solver's own functions (--score).
$(B)/connect4-solve: bench/connect4_solve.c games/connect4.c games/connect4_book.h $(B)/libbanyan.a
	$(SAY) LD $@
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(B)/libbanyan.a $(LDLIBS)

# Connect Four's opening book: builds games/connect4_book.h and checks it
# (tools/connect4_book.sh). It includes the game's source for its solver.
$(B)/connect4-book: tools/connect4_book.c games/connect4.c games/connect4_book.h $(B)/libbanyan.a
	$(SAY) LD $@
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(B)/libbanyan.a $(LDLIBS)

# The Othello solver on the FForum endgame problems (bench/othello_endgame.sh).
$(B)/othello-endgame: bench/othello_endgame.c $(B)/libbanyan.a
	$(SAY) LD $@
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(B)/libbanyan.a $(LDLIBS)

$(B)/nrpa-ref: bench/nrpa_ref.c $(B)/libbanyan.a
	$(SAY) LD $@
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(B)/libbanyan.a $(LDLIBS)

# Othello's evaluation model: self-play games and the fit of its weights
# (tools/othello_eval.sh).
$(B)/othello-eval: tools/othello_eval.c $(B)/libbanyan.a
	$(SAY) LD $@
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(B)/libbanyan.a $(LDLIBS)

# A network judged by exact values: Tic-tac-toe by minimax over every
# position, Connect Four's reference sets by its solver (bench/learn.sh).
$(B)/net-check: bench/net_check.c $(B)/libbanyan_net.a $(B)/libbanyan.a
	$(SAY) LD $@
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(B)/libbanyan_net.a $(B)/libbanyan.a $(NET_LIBS) \
	  $(LDLIBS)

$(EXAMPLE): $(B)/examples/planner.o $(B)/libbanyan.a
	$(SAY) LD $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $< $(B)/libbanyan.a $(LDLIBS)

$(EXAMPLE_TSPTW): $(B)/examples/tsptw.o $(B)/libbanyan.a
	$(SAY) LD $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $< $(B)/libbanyan.a $(LDLIBS)

# The test command of the README, in two tiers (tests/run.sh runs both):
#   make check  the fast tier, after every edit (under a minute on two
#               cores): the fast unit tests (list.h's T entries), the saved
#               fuzz inputs, the bench signature, the program's checks in
#               tests/run.sh and the tests/cli/*.sh files but the slow ones,
#               with a smoke test of each front-end those leave out.
#   make test   everything (at most 12 minutes on two cores): the full tier
#               (make check-all: every unit test and every tests/cli/*.sh
#               file) in a release build, then again under AddressSanitizer
#               and UndefinedBehaviorSanitizer when the compiler can build
#               with them (and a line saying why when it cannot), then the
#               threaded code under ThreadSanitizer (make tsan).
# Each runs its work in two lanes at once, one per core. Under sanitizers
# the unit tests marked ONCE in tests/unit/list.h are left out (the
# release pass runs them): Connect Four's strength against its solver at
# 200,000 playouts and the solver on 3,000 reference scores, the slowest
# strength-style tests there, whose code (the search, the solver) the other
# tests run under the sanitizers too; their results do not change with -O1.
SAN_PROBE = echo 'int main(void){return 0;}' | $(CC) -fsanitize=address,undefined -x c - \
            -o /tmp/banyan-san-probe.$$$$ >/dev/null 2>&1 && rm -f /tmp/banyan-san-probe.$$$$
TSAN_PROBE = echo 'int main(void){return 0;}' | $(CC) -fsanitize=thread -x c - \
             -o /tmp/banyan-tsan-probe.$$$$ >/dev/null 2>&1 && rm -f /tmp/banyan-tsan-probe.$$$$
# Each pass builds on every core first (JOBS), then runs its tests.
JOBS := $(shell nproc 2>/dev/null || echo 2)
ifeq ($(sanitize),)
test:
	@$(MAKE) --no-print-directory -j$(JOBS) check-build
	@$(MAKE) --no-print-directory check-all
	@if $(SAN_PROBE); then \
	  echo "== again under AddressSanitizer and UndefinedBehaviorSanitizer"; \
	  $(MAKE) --no-print-directory -j$(JOBS) sanitize=address,undefined check-build && \
	  $(MAKE) --no-print-directory sanitize=address,undefined check-all; \
	else echo "SKIPPED: the ASan/UBSan pass: $(CC) cannot link -fsanitize=address,undefined"; fi
	@if $(TSAN_PROBE); then \
	  echo "== threads under ThreadSanitizer"; \
	  $(MAKE) --no-print-directory -j$(JOBS) sanitize=thread $(UNIT:$(B)/%=build/san-thread/%) \
	    build/san-thread/banyan $(if $(filter yes,$(WEB)),build/san-thread/fuzz-web) && \
	  $(MAKE) --no-print-directory sanitize=thread tsan; \
	else echo "SKIPPED: the TSan pass: $(CC) cannot link -fsanitize=thread"; fi
else
test: check-all
endif

# What the tests need built (make -jN check-build builds it in parallel).
# The bench programs are built with the tests, so that none falls out of
# step with the library's interfaces unnoticed.
BENCH_BIN = $(B)/connect4-solve $(B)/connect4-book $(B)/othello-endgame $(B)/othello-eval $(B)/nrpa-ref \
            $(B)/net-check $(B)/fit-patterns $(B)/gomoku-vct $(B)/gomoku-children

bench-programs: $(BENCH_BIN)

check-build: all $(UNIT) $(FUZZ_REPLAY) $(B)/banyan-extra $(BENCH_BIN)

TEST_ENV = ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1
check: check-build headers
	$(TEST_ENV) ./tests/run.sh $(B) fast

check-all: check-build headers
	$(TEST_ENV) ./tests/run.sh $(B) all

unit: $(UNIT)
	$(UNIT)

# Threaded code under ThreadSanitizer (make sanitize=thread tsan): the
# threaded unit tests (NRPA's too), NRPA over 4 threads, 4-thread searches of every game, on one shared tree
# and on a tree per thread, graph searches on a shared tree, and selfplay
# playing 4 games at once.
tsan: $(UNIT) $(BANYAN) $(if $(filter yes,$(WEB)),$(B)/fuzz-web)
	TSAN_OPTIONS=halt_on_error=1 $(UNIT) threads stop nested
	@TSAN_OPTIONS=halt_on_error=1 $(BANYAN) solo --param rule=5d --algorithm nrpa --level 2 \
	  --iterations 40 --threads 4 > /dev/null || exit 1; \
	  echo "tsan: NRPA's top level over 4 threads: 1 passed, 0 failed"
	@if [ -x $(B)/fuzz-web ]; then \
	  TSAN_OPTIONS=halt_on_error=1 $(B)/fuzz-web tests/fuzz/corpus/web > /dev/null || exit 1; \
	  echo "tsan: the web board's sessions and searches (fuzz inputs): 1 passed, 0 failed"; fi
	@for p in tree root; do for g in tictactoe connect4 gomoku othello go; do \
	  TSAN_OPTIONS=halt_on_error=1 $(BANYAN) analyze --game $$g --threads 4 --parallel $$p \
	    --playouts 20000 > /dev/null || exit 1; \
	  echo "tsan: 4-thread $$g search, $$p parallelism: 1 passed, 0 failed"; done; done
	@for g in connect4 othello; do \
	  TSAN_OPTIONS=halt_on_error=1 $(BANYAN) analyze --game $$g --threads 4 \
	    --transpositions graph --playouts 20000 > /dev/null || exit 1; \
	  echo "tsan: 4-thread $$g graph search (shared blocks): 1 passed, 0 failed"; done
	@for p in tree root; do \
	  TSAN_OPTIONS=halt_on_error=1 $(BANYAN) analyze --game gomoku --threads 4 --parallel $$p \
	    --position "c8 b8 d5 f5 a11 g8 h6 e8 j5 f8 h8 f7 f6 h9 i10 g6" --playouts 10000 \
	    > /dev/null || exit 1; \
	  echo "tsan: 4-thread Gomoku middle game (deep prover), $$p parallelism: 1 passed, 0 failed"; \
	done
	@for p in tree root; do \
	  TSAN_OPTIONS=halt_on_error=1 $(BANYAN) analyze --game othello --threads 4 --parallel $$p \
	    --position "--O--O-----OOOX--X-XOXOO--XXXOOOXXXXOOOOXXXOXXOOXXXXXX--XOXX-O-- O" \
	    --solve 1 --playouts 20000 > /dev/null || exit 1; \
	  TSAN_OPTIONS=halt_on_error=1 $(BANYAN) analyze --game connect4 --threads 4 --parallel $$p \
	    --position 71324677554451437653 --solve 1 --playouts 20000 > /dev/null || exit 1; \
	  echo "tsan: 4-thread Othello and Connect Four endgames (the solver on nodes), $$p parallelism: 2 passed, 0 failed"; \
	  TSAN_OPTIONS=halt_on_error=1 $(BANYAN) analyze --game connect4 --param book=off --threads 4 \
	    --parallel $$p --transpositions on --playouts 20000 > /dev/null || exit 1; \
	  echo "tsan: 4-thread Connect Four with transpositions, $$p parallelism: 1 passed, 0 failed"; \
	done
	@d=$$(mktemp -d) && \
	  $(BANYAN) train --game tictactoe --init $$d/r.net --channels 8 --blocks 1 --hidden 8 \
	    > /dev/null && \
	  TSAN_OPTIONS=halt_on_error=1 $(BANYAN) selfplay --game tictactoe --net $$d/r.net \
	    --out $$d/r.sp --games 60 --playouts 30 --jobs 4 > /dev/null 2>&1 || { rm -rf $$d; exit 1; }; \
	  rm -rf $$d; echo "tsan: selfplay, 4 games at once written in order: 1 passed, 0 failed"

bench: $(BANYAN)
	$(BANYAN) bench

# Every header compiles on its own, and front-ends use only the public API.
headers:
	@for h in include/*.h src/*.h games/*.h games/gomoku/*.h games/othello/*.h games/go/*.h \
	    proto/*.h net/*.h web/*.h dist/*.h os/*.h; do \
	  printf '#include "%s"\ntypedef int header_check;\n' "$$(basename $$h)" | \
	    $(CC) $(WARN) $(INCS) -I$$(dirname $$h) -fsyntax-only -x c - || exit 1; \
	done
	@for f in games/*.[ch] games/gomoku/*.[ch] games/othello/*.[ch] games/go/*.[ch]; do \
	  for h in $$(sed -n 's/^#include "\(.*\)".*/\1/p' $$f); do \
	    [ -f include/$$h ] || [ -f games/$$h ] || [ -f $$(dirname $$f)/$$h ] || { \
	    echo "$$f: games include only the public headers and their own, not $$h"; exit 1; }; \
	  done; done
	@for h in $$(sed -n 's/^#include "\(.*\)".*/\1/p' program/*.[ch] proto/*.[ch] examples/*.c \
	    tests/fuzz/*.c web/*.[ch] dist/*.[ch] | sort -u); do \
	  [ -f include/$$h ] || [ -f proto/$$h ] || [ -f program/$$h ] || [ -f net/$$h ] || \
	  [ -f web/$$h ] || [ -f dist/$$h ] || [ -f os/$$h ] || [ "$$h" = mpi.h ] || { \
	  echo "program/, proto/, web/, examples/ and fuzz targets include only the public headers" \
	    "and front-end modules, not $$h"; exit 1; }; done
	@for h in $$(sed -n 's/^#include "\(.*\)".*/\1/p' net/*.[ch] | sort -u); do \
	  [ -f include/$$h ] || [ -f net/$$h ] || [ -f os/$$h ] || { \
	  echo "net/ includes only the public headers, its own and os/os.h, not $$h"; exit 1; }; done

format:
	clang-format -i $(FORMAT_SRC)

format-check:
	clang-format --dry-run --Werror $(FORMAT_SRC)

# The Python package (python/banyan) goes where the system's python3 looks
# under PREFIX (python/install_dir.py: /usr/lib/python3/dist-packages for
# /usr, /usr/local/lib/python3.X/dist-packages for /usr/local on Debian),
# else in PREFIX/lib/python3.X/site-packages, and then the line to set
# PYTHONPATH is printed; _installed.py names LIBDIR, where the package
# loads the library from, and the version. Without python3 the package is
# left out.
# The system's python3 (Debian's /usr/bin/python3) unless PYTHON names
# another: a python3 found first on the PATH (pyenv, a venv) searches
# other folders.
PYTHON  ?= $(if $(wildcard /usr/bin/python3),/usr/bin/python3,python3)
PYPREFIX = $(abspath $(PREFIX))
PYDIR    = $(shell $(PYTHON) -E python/install_dir.py $(PYPREFIX) 2>/dev/null)
# What root's install runs to refresh the loader's cache (true: nothing).
LDCONFIG ?= ldconfig
MANDIR   ?= $(PREFIX)/share/man
# The libraries and banyan.pc: PREFIX/lib, or another folder (the Debian
# package's multiarch one, /usr/lib/x86_64-linux-gnu: debian/rules).
LIBDIR   ?= $(PREFIX)/lib

install: all
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/bin \
	  $(DESTDIR)$(LIBDIR)/pkgconfig
	install -m 644 $(B)/libbanyan.a $(DESTDIR)$(LIBDIR)/
	install -m 755 $(B)/libbanyan.so.$(VERSION) $(DESTDIR)$(LIBDIR)/
	ln -sf libbanyan.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf libbanyan.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libbanyan.so
	install -m 644 include/banyan.h include/banyan_game.h $(DESTDIR)$(PREFIX)/include/
	install -m 755 $(BANYAN) $(DESTDIR)$(PREFIX)/bin/
	ln -sf banyan $(DESTDIR)$(PREFIX)/bin/pbrain-banyan
	install -d $(DESTDIR)$(MANDIR)/man1
	install -m 644 $(MAN) $(DESTDIR)$(MANDIR)/man1/
	ln -sf banyan.1 $(DESTDIR)$(MANDIR)/man1/pbrain-banyan.1
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' \
	  -e 's|@LIBDIR@|$(patsubst $(PREFIX)/%,$${prefix}/%,$(LIBDIR))|' \
	  banyan.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/banyan.pc
	@pydir='$(PYDIR)'; if [ -n "$$pydir" ]; then \
	  echo "install the Python package in $$pydir/banyan"; \
	  install -d "$(DESTDIR)$$pydir/banyan" && \
	  install -m 644 python/banyan/*.py "$(DESTDIR)$$pydir/banyan/" && \
	  printf 'LIBDIR = "%s"\nVERSION = "%s"\n' '$(abspath $(LIBDIR))' '$(VERSION)' \
	    > "$(DESTDIR)$$pydir/banyan/_installed.py" && \
	  $(PYTHON) -E python/install_dir.py --note '$(PYPREFIX)'; \
	else echo "note: $(PYTHON) not found: the Python package (python/banyan) is not installed"; fi
	@# The dynamic loader's cache, so that programs find libbanyan.so.MAJOR at once.
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && command -v $(LDCONFIG) >/dev/null; then \
	  $(LDCONFIG); \
	elif [ -z "$(DESTDIR)" ]; then \
	  echo "note: run ldconfig as root (or set LD_LIBRARY_PATH=$(LIBDIR)) so that" \
	    "programs find $(SONAME)"; fi

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/libbanyan.a $(DESTDIR)$(LIBDIR)/libbanyan.so \
	  $(DESTDIR)$(LIBDIR)/$(SONAME) $(DESTDIR)$(LIBDIR)/libbanyan.so.$(VERSION) \
	  $(DESTDIR)$(PREFIX)/include/banyan.h $(DESTDIR)$(PREFIX)/include/banyan_game.h \
	  $(DESTDIR)$(PREFIX)/bin/banyan $(DESTDIR)$(LIBDIR)/pkgconfig/banyan.pc \
	  $(DESTDIR)$(PREFIX)/bin/pbrain-banyan $(DESTDIR)$(MANDIR)/man1/banyan.1 \
	  $(DESTDIR)$(MANDIR)/man1/pbrain-banyan.1
	@pydir='$(PYDIR)'; if [ -n "$$pydir" ] && [ -d "$(DESTDIR)$$pydir/banyan" ]; then \
	  echo "rm -rf $(DESTDIR)$$pydir/banyan"; rm -rf "$(DESTDIR)$$pydir/banyan"; fi

# The source tarball of a release, $(DISTDIR)/banyan-VERSION.tar.gz
# (tools/dist.sh says what it holds). A release is made from a clean
# checkout of its commit (docs/PACKAGING.md).
DISTDIR ?= build
dist:
	@tools/dist.sh banyan-$(VERSION) $(DISTDIR)

clean:
	rm -rf build

help:
	@echo "make                 build build/release/{banyan,libbanyan.a,libbanyan.so}"
	@echo "make test            build and run every test, also under ASan+UBSan and TSan (the"
	@echo "                     README's test command; at most 12 minutes on 2 cores)"
	@echo "make check           the fast tier, after every edit (under a minute on 2 cores)"
	@echo "make check-all       every test of one build (make test runs it for each)"
	@echo "make unit            unit tests only (build/release/unit --fast: the fast ones;"
	@echo "                     --times: each test's time; NAME...: those named)"
	@echo "make bench           run 'banyan bench' (signature and playouts per second)"
	@echo "make bench-programs  the programs of bench/ (solvers, the VCT's power) and tools/"
	@echo "                     (the generators of games/connect4_book.h and the fitted weights;"
	@echo "                     each generated file says at its top the command that rebuilds it)"
	@echo "make debug           -O0 -g -DBANYAN_DEBUG build in build/debug"
	@echo "make sanitize=address,undefined check-all   every test under ASan and UBSan"
	@echo "make sanitize=thread tsan                   the threaded code under TSan"
	@echo "make fuzz            libFuzzer binaries in build/fuzz (clang)"
	@echo "make format          clang-format the sources (format-check to verify)"
	@echo "make install PREFIX=/usr/local          library, headers, banyan.pc, banyan, banyan(1),"
	@echo "                     the Python package"
	@echo "make dist            the source tarball build/banyan-VERSION.tar.gz"
	@echo "make man             the manual page build/release/man/banyan.1 (from --help)"
	@echo "make windows         the Windows build in build/windows (mingw-w64): banyan.exe, the"
	@echo "                     brain pbrain-banyan64.exe, banyan.dll, the zip (docs/WINDOWS.md)"
	@echo "Variables: CC=gcc|clang, WERROR=1 (warnings are errors), V=1 (whole compiler lines)"

# Keep the objects of pattern-built binaries (fuzz replay) between runs.
.SECONDARY:

-include $(LIB_OBJ:.o=.d) $(TOOL_OBJ:.o=.d) $(NET_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(EXTRA_OBJ:.o=.d) $(WEB_OBJ:.o=.d) $(DIST_OBJ:.o=.d) $(FUZZ_SRC:%.c=$(B)/%.d) \
         $(B)/examples/planner.d $(B)/examples/tsptw.d

# Gomoku's evaluation fitted to another engine's: writes games/gomoku/weights.c
# (tools/fit_patterns.c).
$(B)/fit-patterns: tools/fit_patterns.c $(B)/libbanyan.a
	$(SAY) LD $@
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(B)/libbanyan.a $(LDLIBS)

# The power of Gomoku's VCT on positions of games (bench/gomoku_vct.c).
$(B)/gomoku-vct: bench/gomoku_vct.c $(B)/libbanyan.a
	$(SAY) LD $@
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(B)/libbanyan.a $(LDLIBS)

# Gomoku's evaluation on the children of positions (bench/gomoku_children.c).
$(B)/gomoku-children: bench/gomoku_children.c $(B)/libbanyan.a
	$(SAY) LD $@
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(B)/libbanyan.a $(LDLIBS)

# ---- Windows ----
# make windows: the Windows build, cross-compiled on Debian with mingw-w64
# (gcc-mingw-w64-x86-64-posix, the posix thread model: the library's threads
# run on winpthreads) into build/windows/ (docs/WINDOWS.md): libbanyan.a,
# banyan.dll with its import library libbanyan.dll.a (exporting the names
# src/banyan.map gives, listed in banyan.def), banyan.exe, the Gomocup brain
# pbrain-banyan64.exe (a 64-bit brain carries 64 in its name: Gomocup's
# managers take it on 64-bit Windows, a name without 64 on 32-bit) and the
# same program as pbrain-banyan.exe, and the release's zip. The programs are
# linked statically and need no DLL of mingw's. The platform layer is
# os/win.c; the web board, MPI and OpenBLAS are left out (web/none.c,
# dist/none.c, net/'s plain C products). Every file includes os/mingw.h
# first (-include). The Gomoku tables' generator runs here, built with CC.
WIN          = build/windows
WIN_PREFIX   = x86_64-w64-mingw32-
WIN_CC       = $(WIN_PREFIX)gcc-posix
WIN_CFLAGS   = $(WARN) -O2 -DNDEBUG $(INCS) -include os/mingw.h
WIN_LDFLAGS  = -static -pthread -s
WIN_LIB_OBJ  = $(patsubst %.c,$(WIN)/%.o,$(filter-out $(GEN_TABLES),$(LIB_SRC))) \
               $(WIN)/games/gomoku/tables.o $(WIN)/games/go/pattern_bits.o
WIN_NET_OBJ  = $(patsubst %.c,$(WIN)/%.o,$(filter-out $(OS_SRC),$(NET_SRC)) os/win.c)
WIN_TOOL_OBJ = $(patsubst %.c,$(WIN)/%.o,$(TOOL_SRC) web/none.c dist/none.c dist/dsearch.c)
WIN_DIST     = $(WIN)/banyan-$(VERSION)-windows-x86_64
WIN_ZIP      = $(WIN_DIST).zip
WIN_ZIPPED   = $(WIN)/banyan.exe $(WIN)/pbrain-banyan64.exe $(WIN)/banyan.dll $(WIN)/libbanyan.dll.a \
               $(WIN)/libbanyan.a $(WIN)/banyan.def include/banyan.h include/banyan_game.h \
               README.md LICENSE docs/WINDOWS.md

.PHONY: windows
windows: $(WIN_ZIP) $(WIN)/pbrain-banyan.exe

$(WIN)/%.o: %.c
	@mkdir -p $(dir $@)
	$(SAY) CC $@
	$(Q)$(WIN_CC) $(WIN_CFLAGS) -MMD -MP -c $< -o $@

$(WIN)/program/main.o: WIN_CFLAGS += \
  -DBANYAN_COMPILER='"$(subst ',,$(shell $(WIN_CC) --version 2>/dev/null | head -1))"'
$(WIN)/web/none.o: WIN_CFLAGS += -DWEB_MISSING='"left out of the Windows build (docs/WINDOWS.md)"'
$(WIN)/dist/none.o: WIN_CFLAGS += -DDIST_MISSING='"left out of the Windows build (docs/WINDOWS.md)"'

$(WIN)/host/gen_tables: games/gomoku/gen_tables.c games/gomoku/gomoku.h include/banyan_game.h
	@mkdir -p $(dir $@)
	$(SAY) LD $@
	$(Q)$(CC) $(WARN) -O2 $(INCS) -o $@ games/gomoku/gen_tables.c -lm

$(WIN)/games/gomoku/tables.c: $(WIN)/host/gen_tables
	@mkdir -p $(dir $@)
	$(SAY) GEN $@
	$(Q)$< $@.tmp && mv $@.tmp $@

$(WIN)/games/gomoku/tables.o: $(WIN)/games/gomoku/tables.c
	$(SAY) CC $@
	$(Q)$(WIN_CC) $(WIN_CFLAGS) -Igames/gomoku -MMD -MP -c $< -o $@

$(WIN)/host/gen_patterns: games/go/gen_patterns.c
	@mkdir -p $(dir $@)
	$(SAY) LD $@
	$(Q)$(CC) $(WARN) -O2 -o $@ games/go/gen_patterns.c

$(WIN)/games/go/pattern_bits.c: $(WIN)/host/gen_patterns
	@mkdir -p $(dir $@)
	$(SAY) GEN $@
	$(Q)$< $@.tmp && mv $@.tmp $@

$(WIN)/games/go/pattern_bits.o: $(WIN)/games/go/pattern_bits.c
	$(SAY) CC $@
	$(Q)$(WIN_CC) $(WIN_CFLAGS) -MMD -MP -c $< -o $@

$(WIN)/libbanyan.a: $(WIN_LIB_OBJ)
	$(SAY) AR $@
	$(Q)rm -f $@
	$(Q)$(WIN_PREFIX)ar rcs $@ $^

$(WIN)/libbanyan_net.a: $(WIN_NET_OBJ)
	$(SAY) AR $@
	$(Q)rm -f $@
	$(Q)$(WIN_PREFIX)ar rcs $@ $^

# The DLL's exports: the library's names that src/banyan.map's pattern
# takes and the public headers declare (libbanyan.so's exports: a DLL has
# no hidden visibility to keep the internal banyan_* names in), the data
# (the games' tables) marked DATA.
$(WIN)/banyan.def: $(WIN)/libbanyan.a src/banyan.map include/banyan.h include/banyan_game.h
	$(SAY) GEN $@
	$(Q)grep -ohw 'banyan_[A-Za-z0-9_]*' include/banyan.h include/banyan_game.h | sort -u > $@.pub
	$(Q)pat=$$(sed -n 's/.*global: *\([^;]*\);.*/\1/p' src/banyan.map); \
	{ echo "LIBRARY banyan.dll"; echo "EXPORTS"; \
	  $(WIN_PREFIX)nm -g --defined-only $< | awk -v pat="$$pat" \
	    'BEGIN { gsub(/\*/, ".*", pat); pat = "^" pat "$$" } \
	     NR == FNR { public[$$1]; next } \
	     NF == 3 && $$3 ~ pat && ($$3 in public) { print "    " $$3 ($$2 == "T" ? "" : " DATA") }' \
	    $@.pub - | sort -u; \
	} > $@.tmp && rm $@.pub && mv $@.tmp $@

$(WIN)/banyan.dll: $(WIN_LIB_OBJ) $(WIN)/banyan.def
	$(SAY) LD $@
	$(Q)$(WIN_CC) -shared $(WIN_LDFLAGS) -o $@ $(WIN_LIB_OBJ) $(WIN)/banyan.def \
	  -Wl,--out-implib,$(WIN)/libbanyan.dll.a -lm
$(WIN)/libbanyan.dll.a: $(WIN)/banyan.dll ;

$(WIN)/banyan.exe: $(WIN_TOOL_OBJ) $(WIN)/libbanyan_net.a $(WIN)/libbanyan.a
	$(SAY) LD $@
	$(Q)$(WIN_CC) $(WIN_LDFLAGS) -o $@ $(WIN_TOOL_OBJ) $(WIN)/libbanyan_net.a $(WIN)/libbanyan.a -lm

$(WIN)/pbrain-banyan64.exe $(WIN)/pbrain-banyan.exe: $(WIN)/banyan.exe
	$(Q)cp $< $@

# The release's zip: the programs and the DLL at its root (where Gomocup's
# managers look for a brain), lib/ and include/ for programs of one's own.
$(WIN_ZIP): $(WIN_ZIPPED)
	$(SAY) ZIP $@
	$(Q)rm -rf $(WIN_DIST) $@.tmp
	$(Q)mkdir -p $(WIN_DIST)/include $(WIN_DIST)/lib
	$(Q)cp $(WIN)/banyan.exe $(WIN)/pbrain-banyan64.exe $(WIN)/banyan.dll README.md LICENSE \
	  docs/WINDOWS.md $(WIN_DIST)/
	$(Q)cp $(WIN)/libbanyan.a $(WIN)/libbanyan.dll.a $(WIN)/banyan.def $(WIN_DIST)/lib/
	$(Q)cp include/banyan.h include/banyan_game.h $(WIN_DIST)/include/
	$(Q)cd $(WIN_DIST) && zip -q -X -r ../$(notdir $@).tmp .
	$(Q)mv $@.tmp $@

-include $(WIN_LIB_OBJ:.o=.d) $(WIN_NET_OBJ:.o=.d) $(WIN_TOOL_OBJ:.o=.d)
