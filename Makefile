# cltutor — build, run, test and install.
PREFIX  ?= /usr/local
DESTDIR ?=
BINDIR   = $(PREFIX)/bin
DATADIR  = $(PREFIX)/share/cltutor
MANDIR   = $(PREFIX)/share/man/man1
PLUGINDIR = $(PREFIX)/lib/cltutor
LOCALEDIR = $(PREFIX)/share/locale

CC      ?= cc
BUILD   ?= build
PKGS     = OpenCL libcjson inih md4c md4c-html libseccomp libarchive nettle
WERROR  ?= -Werror
CFLAGS  ?= -O2 -g
SANITIZE ?=
CFLAGS  += -fopenmp -std=c11 -Wall -Wextra -Wformat-security $(WERROR) $(SANITIZE)
CPPFLAGS += -DCLT_DATADIR='"$(DATADIR)"' -DCLT_PLUGINDIR='"$(PLUGINDIR)"' -DCLT_LOCALEDIR='"$(LOCALEDIR)"' $(shell pkg-config --cflags $(PKGS) 2>/dev/null) -Isrc
LDFLAGS += -fopenmp $(SANITIZE)
LDLIBS  += $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lOpenCL -lcjson -linih -lmd4c-html -lmd4c -lseccomp -larchive -lnettle) -lm

# The source is layered, one folder a layer, lowest first (docs/architecture.md):
#   base text course cl problem run gpumodel grade ui | term cli
# A file includes only its own layer and those below it (scripts/layers.py
# checks, in `make test`). The model (every layer up to ui) has no curses;
# the grader and the tests link it alone. src/term is the terminal UI, the
# only code that sees curses; src/cli the command line and main.c.
# NO_UI=1 builds without the terminal UI (and without curses), e.g. for a
# machine that only runs kernels: `cltutor` alone then prints the chapter list.
LAYERS    = base text course cl problem run gpumodel grade ui
UI_SRC    = $(if $(NO_UI),,$(wildcard src/term/*.c))
APP_SRC   = $(wildcard src/cli/*.c) $(UI_SRC)
MODEL_SRC = $(foreach l,$(LAYERS),$(wildcard src/$(l)/*.c))
MODEL_OBJ = $(MODEL_SRC:src/%.c=$(BUILD)/obj/%.o)
APP_OBJ   = $(APP_SRC:src/%.c=$(BUILD)/obj/%.o)
HEADERS   = $(wildcard src/*/*.h)
UI_CPPFLAGS = $(shell pkg-config --cflags ncursesw 2>/dev/null)
UI_LIBS     = $(if $(NO_UI),-lpthread,$(shell pkg-config --libs ncursesw 2>/dev/null || echo -lncursesw -ltinfo) -lpthread)
CPPFLAGS   += $(if $(NO_UI),-DCLT_NO_UI)
$(BUILD)/obj/term/%.o: CPPFLAGS += $(UI_CPPFLAGS)

UNIT_SRC  = $(wildcard tests/unit/*.c)

.PHONY: all have-deps run test check unit cli-test asan deps test-deps install uninstall clean bench validate-model plugin translations pot

# `make` only builds; `make run` and `make test` first install what is
# missing (scripts/deps.sh), as the README says.
all: have-deps $(BUILD)/cltutor plugin

have-deps:
	@sh scripts/deps.sh check

deps:
	@sh scripts/deps.sh build

test-deps:
	@sh scripts/deps.sh test

# Each object depends on the headers it includes (-MMD -MP: listed by the
# compiler in a .d file beside it, under the object's names relative to the
# checkout and absolute, whichever way BUILD was spelled when it was made, so
# that a later make naming the folder the other way still sees them); the
# stamp rebuilds once the objects of a build folder made with other lists.
$(BUILD)/obj/%.o: src/%.c $(BUILD)/obj/.dep-lists-3
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -MT $(patsubst $(CURDIR)/%,%,$(abspath $@)) -MT $(abspath $@) -c $< -o $@
$(BUILD)/obj/.dep-lists-3:
	@mkdir -p $(@D) && touch $@
-include $(MODEL_OBJ:.o=.d) $(APP_OBJ:.o=.d)

$(BUILD)/cltutor: $(MODEL_OBJ) $(APP_OBJ) | translations
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS) $(UI_LIBS)

# The program's messages in other languages (GNU gettext): po/LANG.po holds
# the translations; msgfmt checks them (formats included) into the binary
# catalogues beside the program, where it finds them in a build. `make pot`
# takes the messages from the source again and merges them into each .po.
LINGUAS  = $(basename $(notdir $(wildcard po/*.po)))
MO_FILES = $(LINGUAS:%=$(BUILD)/locale/%/LC_MESSAGES/cltutor.mo)
XGETTEXT_FLAGS = --from-code=UTF-8 --language=C --keyword=_ --keyword=N_ --keyword=P_:1,2 --keyword=set_msg:4 --keyword=set_item:4 --keyword=prob_fail:4 --keyword=add_item:4 --keyword=verify_init:2 --keyword=tmsg_part_of:2 --keyword=tmsg_set:2 --keyword=tmsg_plural_of:2,3 --keyword=tmsg_setn:2,3 --keyword=set_item_n:4,5 --add-comments=TRANSLATORS: \
	--package-name=cltutor --no-wrap --sort-by-file
translations: $(MO_FILES)
$(BUILD)/locale/%/LC_MESSAGES/cltutor.mo: po/%.po
	@mkdir -p $(@D)
	msgfmt --check -o $@ $<
pot: $(BUILD)/kcomment-pot
	xgettext $(XGETTEXT_FLAGS) -o po/cltutor.pot $(sort $(wildcard src/*/*.c src/*/*.h))
	$(BUILD)/kcomment-pot $(sort $(wildcard exercises/*/*.cl)) | msguniq --no-wrap -o $(BUILD)/exercise-comments.pot -
	msgcat --use-first --no-wrap -o po/cltutor.pot po/cltutor.pot $(BUILD)/exercise-comments.pot
	for po in po/*.po; do msgmerge --quiet --update --backup=none --no-wrap $$po po/cltutor.pot; done

# The exercise files' comments as messages to translate (text/kcomment.h).
$(BUILD)/kcomment-pot: tools/kcomment-pot.c $(MODEL_OBJ)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The GPU memory model's Oclgrind plugin (C++, see docs/gpu-model.md); skipped
# with a note where Oclgrind's headers are missing (`cltutor analyze` then says how to install them).
GM_PLUGIN   = $(BUILD)/cltutor-gpumodel.so
LLVM_CONFIG ?= $(firstword $(shell command -v llvm-config-14 llvm-config 2>/dev/null) llvm-config-14)
plugin: $(GM_PLUGIN)
$(GM_PLUGIN): plugin/gpumodel_plugin.cpp
	@mkdir -p $(BUILD)
	@if [ -f /usr/include/oclgrind/Plugin.h ] && $(LLVM_CONFIG) --includedir >/dev/null 2>&1; then \
	  echo "$(CXX) -shared -fPIC -fno-rtti ... -o $@ $<"; \
	  $(CXX) -std=c++17 -O2 -g $(CXXFLAGS) $(filter -D_FORTIFY_SOURCE%,$(CPPFLAGS)) $(filter-out -fopenmp $(SANITIZE),$(LDFLAGS)) -shared -fPIC -fno-rtti -Wall -Wextra $(WERROR) \
	    -isystem $$($(LLVM_CONFIG) --includedir) -o $@ $< \
	    -loclgrind $$($(LLVM_CONFIG) --ldflags) $$($(LLVM_CONFIG) --libs); \
	else echo "note: Oclgrind's plugin headers are missing, so \`cltutor analyze\` is unavailable (sh scripts/deps.sh build installs them)"; fi

run: deps
	@$(MAKE) --no-print-directory all
	@$(BUILD)/cltutor; status=$$?; \
	if ! command -v cltutor >/dev/null 2>&1; then \
	  echo "The lessons' commands (cltutor run 2, cltutor check all, ...) are $(CURDIR)/$(BUILD)/cltutor here."; \
	  echo "To type them as written: export PATH=\"$(CURDIR)/$(BUILD):\$$PATH\"   (or: sudo make install)"; \
	fi; exit $$status

# Unit tests (Check) of the model, built with ASan and UBSan.
SAN_FLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
$(BUILD)/unit-tests: $(MODEL_SRC) $(UNIT_SRC) $(HEADERS) $(wildcard tests/unit/*.h) | translations
	@mkdir -p $(BUILD)
	$(CC) $(CPPFLAGS) -DCLT_TEST_ROOT='"$(CURDIR)"' -Itests/unit $(shell pkg-config --cflags check) $(CFLAGS) -O1 $(SAN_FLAGS) -o $@ \
	    $(MODEL_SRC) $(UNIT_SRC) $(LDLIBS) $(shell pkg-config --libs check)

# The engine runs kernels in a fresh cltutor process: the tests' binaries use the one next to them.
unit: $(BUILD)/unit-tests $(BUILD)/cltutor
	ASAN_OPTIONS=detect_leaks=1:handle_segv=0:handle_sigbus=0:handle_abort=0 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/unit/lsan.supp CK_DEFAULT_TIMEOUT=300 $(BUILD)/unit-tests

# Analyses a chapter three times in one process (tests/gpumodel): it lives
# next to cltutor, where the GPU model looks for its Oclgrind plugin.
$(BUILD)/gm-cache-probe: tests/gpumodel/cache_probe.c $(MODEL_OBJ) | $(BUILD)/cltutor
	$(CC) $(CPPFLAGS) -Isrc $(CFLAGS) -o $@ $^ $(LDFLAGS) $(LDLIBS)

# The program itself built with ASan and UBSan in build-asan/, and the
# integration suites that tests/ASAN lists run on it: any error a sanitizer
# finds ends that process and fails its test. The workers that run kernels
# are the plain program ($(BUILD)/cltutor, CLTUTOR_WORKER) with the plain
# plugin: a grading worker's memory limit leaves ASan no room for its shadow.
ASAN_BUILD = build-asan
asan: deps test-deps
	@$(MAKE) --no-print-directory $(BUILD)/cltutor plugin
	@$(MAKE) --no-print-directory BUILD=$(ASAN_BUILD) SANITIZE="$(SAN_FLAGS)" $(ASAN_BUILD)/cltutor $(ASAN_BUILD)/unit-tests $(ASAN_BUILD)/gm-cache-probe $(ASAN_BUILD)/kcomment-pot
	@if [ -f $(GM_PLUGIN) ]; then cp $(GM_PLUGIN) $(ASAN_BUILD)/; fi
	@CLTUTOR_WORKER=$(CURDIR)/$(BUILD)/cltutor ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:handle_segv=0:handle_sigbus=0 \
	  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 sh tests/run_all.sh --list tests/ASAN $(ASAN_BUILD)

# The command-line scripts alone (tests/cli/t01*.t), under prove.
cli-test: $(BUILD)/cltutor
	@prove -r tests/cli/ :: $(BUILD)

# Every test script (tests/run_all.sh runs them side by side: JOBS=N sets how
# many at a time); `make check` runs a sample of every suite (tests/CHECK),
# for each change.
test: deps test-deps
	@$(MAKE) --no-print-directory $(BUILD)/cltutor $(BUILD)/unit-tests $(BUILD)/gm-cache-probe $(BUILD)/kcomment-pot plugin
	@sh tests/run_all.sh $(if $(JOBS),-j $(JOBS)) $(BUILD)

check: deps test-deps
	@$(MAKE) --no-print-directory $(BUILD)/cltutor $(BUILD)/unit-tests $(BUILD)/gm-cache-probe $(BUILD)/kcomment-pot plugin
	@CLTUTOR_TEST_SAMPLE=1 sh tests/run_all.sh --list tests/CHECK $(if $(JOBS),-j $(JOBS)) $(BUILD)

# Reference kernels against the device's own limits (see docs/results/).
bench: deps
	@$(MAKE) --no-print-directory all
	$(BUILD)/cltutor bench all $(BENCH_ARGS)

# The time prediction against this device's measured times (docs/gpu-model.md):
# writes devices/ID.ini and docs/results/ID-prediction.md. ID names the device.
validate-model: deps
	@$(MAKE) --no-print-directory all plugin
	sh bench/profile-and-validate.sh $(BUILD) $(VALIDATE_ARGS)

# The installed program finds its course in ../share/cltutor and its
# Oclgrind plugin in ../lib/cltutor beside its own folder, so that PREFIX
# and DESTDIR need no rebuild. NO_SOLUTIONS=1 makes a student install:
# no reference solutions (kernels/) anywhere on disk.
DOCDIR  = $(PREFIX)/share/doc/cltutor
COMPDIR = $(PREFIX)/share/bash-completion/completions
DOCS    = README.md LICENSE $(wildcard docs/*.md)
TEMPLATES = gradescope prairielearn github-classroom shards
install: $(BUILD)/cltutor plugin translations
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR) $(DESTDIR)$(MANDIR) $(DESTDIR)$(DOCDIR) $(DESTDIR)$(COMPDIR)
	install -m 755 $(BUILD)/cltutor $(DESTDIR)$(BINDIR)/cltutor
	rm -rf $(DESTDIR)$(DATADIR)/lessons $(DESTDIR)$(DATADIR)/exercises $(DESTDIR)$(DATADIR)/kernels $(DESTDIR)$(DATADIR)/devices
	cp -R lessons exercises devices $(if $(NO_SOLUTIONS),,kernels) $(DESTDIR)$(DATADIR)/
	install -d $(DESTDIR)$(DATADIR)/bench && install -m 644 bench/peers.py $(DESTDIR)$(DATADIR)/bench/
	install -d $(DESTDIR)$(DATADIR)/bench/cub && install -m 644 bench/cub/cub_peers.cu $(DESTDIR)$(DATADIR)/bench/cub/
	chmod -R u=rwX,go=rX $(DESTDIR)$(DATADIR)
	install -m 644 man/cltutor.1 $(DESTDIR)$(MANDIR)/cltutor.1
	install -m 644 $(DOCS) docs/cltutor.conf $(DESTDIR)$(DOCDIR)/
	# the grading platforms' templates the instructor guide names (github-classroom holds a .github folder)
	for d in $(TEMPLATES); do rm -rf $(DESTDIR)$(DOCDIR)/$$d && cp -R docs/$$d $(DESTDIR)$(DOCDIR)/$$d; done
	chmod -R u=rwX,go=rX $(DESTDIR)$(DOCDIR)
	if [ -f completions/cltutor.bash ]; then install -m 644 completions/cltutor.bash $(DESTDIR)$(COMPDIR)/cltutor; fi
	if [ -f $(GM_PLUGIN) ]; then install -d $(DESTDIR)$(PLUGINDIR) && install -m 644 $(GM_PLUGIN) $(DESTDIR)$(PLUGINDIR)/; fi
	for l in $(LINGUAS); do install -d $(DESTDIR)$(LOCALEDIR)/$$l/LC_MESSAGES && \
	  install -m 644 $(BUILD)/locale/$$l/LC_MESSAGES/cltutor.mo $(DESTDIR)$(LOCALEDIR)/$$l/LC_MESSAGES/; done

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/cltutor $(DESTDIR)$(MANDIR)/cltutor.1 $(DESTDIR)$(COMPDIR)/cltutor
	for l in $(LINGUAS); do rm -f $(DESTDIR)$(LOCALEDIR)/$$l/LC_MESSAGES/cltutor.mo; done
	rm -rf $(DESTDIR)$(DATADIR) $(DESTDIR)$(PLUGINDIR) $(DESTDIR)$(DOCDIR)

clean:
	rm -rf $(BUILD)
