# rcuqs: runtime RCU quiescent-state tuning for Debian 12 and 13.
#
#   make           the tool only (rcuqs-ctl/rcuqs-ctl): gcc, make, pkg-config
#                  and libkmod-dev, no dependency script, no kernel; on
#                  Debian 12 and 13 alike
#   make demo      build the `dynamic` test kernel (6.1 PREEMPT_DYNAMIC
#                  booting voluntary, Debian 12's model, one of make check's)
#                  and its guest, boot it, show the tunables at work
#   make check     every test: tool, docs, units, package, patches, guest on
#                  the three test kernels, Debian's preemption models (6.1
#                  and 6.12 PREEMPT_DYNAMIC booting voluntary, 7.3 lazy)
#   make deb       the Debian package, $(BUILD)/rcuqs_<version>_<arch>.deb
#
# Each of demo, check, deb and kernel-deb installs the Debian packages it
# misses first (scripts/install-deps.sh: demo and check everything, deb
# only the package build's, kernel-deb only the kernel build's); plain
# make installs nothing.
#
#   make torture [KERNEL=6.1|6.12|7.3]   rcutorture's own scenarios on a
#                  series, 10 minutes each (TORTURE_MINUTES,
#                  TORTURE_SCENARIOS, TORTURE_LIMITS); not part of make check
#   make kernel-deb [KERNEL=6.1|6.12|7.3] [KCONFIG=/boot/config-RELEASE]
#                  [KDEB_ROLE=NAME] [KSIGN_KEY=key.pem KSIGN_CERT=cert.pem]
#                  the patched kernel as linux-image/linux-headers packages
#                  for a real machine (doc/install.md: "The patched kernel on a
#                  Debian machine"), signed for Secure Boot when asked;
#                  not part of make check
#   make refresh KERNEL=6.1|6.12|7.3
#                  the series regenerated against the installed
#                  linux-source with no offset (after a Debian upload)

BUILD ?= $(CURDIR)/build
RESULTS := $(BUILD)/results
export BUILD RESULTS

SUBDIRS := rcuqs-ctl man systemd-units

.PHONY: all deps tool kernel kernel-deb refresh image demo bench bench-cost check check-lockdep check-rt check-deb deb install clean distclean torture

# The default goal: the tool and nothing else. It runs no install-deps.sh
# (whose full set wants QEMU, clang, debootstrap and Debian 12's
# linux-source-6.1): a missing libkmod-dev is rcuqs-ctl's build's own
# error. tests/deb/check-deb.sh checks it with make -n.
all:
	$(MAKE) -C rcuqs-ctl

# $(DEB), the package, and its rule (after "all", the default goal).
TOP := $(CURDIR)
include scripts/deb.mk

deps:
	@./scripts/install-deps.sh

tool: all
	$(MAKE) -C rcuqs-ctl

kernel: deps
	$(MAKE) -C kernel-patches kernel

# KCONFIG is made absolute here: kernel-patches/ runs in its own folder. A
# bad KCONFIG is refused before any package is installed.
KDEB_ARGS = $(if $(strip $(KCONFIG)),KCONFIG=$(abspath $(KCONFIG))) \
	$(foreach v,KSIGN_KEY KSIGN_CERT,$(if $(strip $($(v))),$(v)=$(abspath $($(v)))))
kernel-deb:
	@$(MAKE) -s -C kernel-patches kernel-deb-args $(KDEB_ARGS)
	@./scripts/install-deps.sh kernel-deb $(or $(KERNEL),6.1)
	$(MAKE) -C kernel-patches kernel-deb $(KDEB_ARGS)

# The lean packages of all three baselines, each signed with a throwaway
# key ($(BUILD)/ksign-test), then check-kdeb.sh on them (sbverify
# included): $(RESULTS)/kdeb-build.tap. About 10 minutes a baseline on 2
# cores; not part of make check. KDEB_KERNELS picks baselines (default
# all three); check-kdeb.sh checks the packages of those it finds.
KDEB_KERNELS ?= 6.1 6.12 7.3
.PHONY: check-kdeb-build
check-kdeb-build:
	@./scripts/install-deps.sh kernel-deb 6.12 && ./scripts/install-deps.sh kernel-deb 7.3
	@mkdir -p $(BUILD)/ksign-test $(RESULTS)
	@[ -f $(BUILD)/ksign-test/cert.pem ] || openssl req -new -x509 -newkey rsa:2048 -nodes -days 3650 \
		-subj "/CN=rcuqs throwaway test key, never enrol it/" \
		-keyout $(BUILD)/ksign-test/key.pem -out $(BUILD)/ksign-test/cert.pem 2>/dev/null
	@for k in $(KDEB_KERNELS); do \
		$(MAKE) --no-print-directory -C kernel-patches kernel-deb KERNEL=$$k \
			KSIGN_KEY=$(BUILD)/ksign-test/key.pem KSIGN_CERT=$(BUILD)/ksign-test/cert.pem || exit 1; \
	done
	@./kernel-patches/check-kdeb.sh $(RESULTS)/kdeb-build.tap

# The README's quick start followed literally in a Debian 12 VM booted
# through GRUB under QEMU (TCG), each step asserted from the VM's console:
# the build lines on this host (make kernel-deb with the VM's lean
# configuration, kernel-patches/config/vm.config), the rest in the VM,
# trial boot and way back included (tests/quickstart/README). TAP in
# $(RESULTS)/quickstart.tap, console logs in $(RESULTS)/quickstart-debian12.
# Debian 13 (6.12) likewise: $(RESULTS)/quickstart-debian13.tap and
# quickstart-debian13/. The fleet (Debian 12, doc/fleet.md): make
# kernel-repo after the same build, the packages installed from that
# repository with apt, the same quick start from the trial boot on, back
# with doc/fleet.md's one-command purge: $(RESULTS)/quickstart-fleet.tap
# and quickstart-fleet/. The fallback (Debian 12, the follow suite's
# machine): two later builds the build host publishes, one whose trial
# fails a site's health check and one that panics at boot, each
# installed by unattended-upgrades with nothing typed, rejected, and the
# VM back on its first build by itself: quickstart-fallback.tap and
# quickstart-fallback/. The measure suite (Debian 12): the bookworm
# suite's quick start plus a boot with nohz_full=1 where rcuqs-ctl measure
# and measure --compare --json run, their output kept in
# $(RESULTS)/quickstart-measure.txt and .json: quickstart-measure.tap
# and quickstart-measure/. The follow suite (Debian 12, doc/fleet.md's
# machine that follows its ring by itself): the first build from an
# earlier linux-source-6.1 upload, tried and committed; the build host's
# rcuqs-kernel-follow publishes the installed upload's build, promoted;
# the VM installs it through unattended-upgrades, reboots, tries and
# commits it with no command typed: quickstart-follow.tap and
# quickstart-follow/. SUITE=bookworm, trixie, fleet, fallback, measure or
# follow runs one. Needs
# root; not part of make check; about 10 minutes a suite once its kernel
# and root are built (tests/quickstart/README has the times).
.PHONY: check-quickstart
check-quickstart: deps
	@mkdir -p $(RESULTS)
	@rc=0; for s in $(or $(SUITE),bookworm trixie fleet fallback measure follow); do \
		JOBS=$(or $(JOBS),2) ./tests/quickstart/check-quickstart.sh $$s || rc=1; \
	done; exit $$rc

# make refresh KERNEL=6.1|6.12|7.3: after a Debian kernel upload, the
# series regenerated against the installed linux-source with no offset,
# every changelog byte kept (kernel-patches/README, "Following Debian's
# kernel uploads"); review and commit the diff.
refresh:
	@./scripts/install-deps.sh kernel-deb $(or $(KERNEL),6.1)
	$(MAKE) -C kernel-patches refresh KERNEL=$(or $(KERNEL),6.1)

# make kernel-repo [REPO=DIR] [REPO_KEY=KEY] [REPO_URI=URI]: the packages
# make kernel-deb and make deb left in $(BUILD) added to a signed apt
# repository for a fleet, into its canary ring, with a meta-package per
# kernel baseline whose highest version in a ring depends on that ring's
# newest build (scripts/kernel-repo.sh, doc/fleet.md).
# make kernel-repo-promote PROMOTE='PACKAGE=VERSION...' [PROMOTE_FROM=canary]
# [PROMOTE_TO=stable]: those builds copied from one ring into the other
# (PROMOTE=--all: all PROMOTE_FROM has). make kernel-repo-refresh: every Release
# signed again with a new Valid-Until (the build host's timer).
# All three take REPO_VALID_FOR (default 7d); kernel-repo and
# kernel-repo-promote REPO_REQUIRE_SIGNED=yes and REPO_SIGNING_CERT=CERT
# (refuse kernels that are not signed; the script reads them from the
# environment). Without REPO_KEY, a throwaway test key. Installs apt-utils
# (apt-ftparchive) and gnupg when they are missing, nothing else.
REPO ?= $(BUILD)/repo
PROMOTE_FROM ?= canary
PROMOTE_TO ?= stable
REPO_TOOLS = command -v apt-ftparchive >/dev/null && command -v gpg >/dev/null || \
	apt-get install -y --no-install-recommends apt-utils gnupg
REPO_ARGS = --repo '$(REPO)' $(if $(REPO_KEY),--key '$(REPO_KEY)') $(if $(REPO_URI),--uri '$(REPO_URI)') \
	$(if $(REPO_VALID_FOR),--valid-for '$(REPO_VALID_FOR)')
export REPO_REQUIRE_SIGNED REPO_SIGNING_CERT
.PHONY: kernel-repo kernel-repo-promote kernel-repo-refresh check-repo
kernel-repo:
	@$(REPO_TOOLS)
	./scripts/kernel-repo.sh add $(REPO_ARGS)
kernel-repo-promote:
	@[ -n '$(PROMOTE)' ] || { echo "make kernel-repo-promote: name the builds, PROMOTE='PACKAGE=VERSION ...' (or PROMOTE=--all)" >&2; exit 2; }
	@$(REPO_TOOLS)
	./scripts/kernel-repo.sh promote $(REPO_ARGS) '$(PROMOTE_FROM)' '$(PROMOTE_TO)' $(PROMOTE)
kernel-repo-refresh:
	@$(REPO_TOOLS)
	./scripts/kernel-repo.sh refresh $(REPO_ARGS)

image: kernel
	$(MAKE) -C guest-image image

# make demo boots DEMO_VARIANTS (guest-image/Makefile): `dynamic`, the
# 6.1 test kernel make check builds and boots, PREEMPT_DYNAMIC booting
# voluntary with preemptible RCU like Debian 12's own kernel; after a
# make check it builds nothing.
demo: deps
	@echo "== make demo shows the dynamic test kernel: 6.1.192 with the rcuqs series, PREEMPT_DYNAMIC booting voluntary, preemptible RCU (Debian 12's model; make check's 6.1 kernel)"
	@test -e $(BUILD)/stamp-build-dynamic || \
		echo "== demo: building it first (no make check ran here yet), about 10 minutes on 2 cores (kbuild prints its progress)"
	$(MAKE) -C guest-image demo

# The guest suite on a third kernel with lockdep and PROVE_RCU (debug run).
check-lockdep: deps
	$(MAKE) -C guest-image check-lockdep

# The limit's report on a 6.12 PREEMPT_RT kernel with lockdep, beside a
# task preempted inside local_bh_disable() (guest-image check-rt); an
# extra kernel build, not part of make check.
check-rt: deps
	$(MAKE) -C guest-image check-rt

# rcutorture's own scenarios (TREE01, TREE04, TREE07, TASKS01, TRACE01, and
# TREE04 with lockdep) on the KERNEL=6.1 (default), 6.12 or 7.3 series,
# the limit at 1, 16 and 256 (7.3: jiffies_till_nohz_qs at 1) and the
# tunables rewritten during the run: kernel-patches/torture/torture.sh.
# About 90 minutes a baseline on 2 cores; not part of make check.
torture: deps
	$(MAKE) -C kernel-patches torture KERNEL=$(or $(KERNEL),6.1)

# Timings, not tests (see README): grace-period latency per profile.
bench: deps
	$(MAKE) -C guest-image bench

# cond_resched() cost against the same kernel without the series (a third
# kernel build, kernel-base): instruction counts on the path from objdump,
# then boots alternating base and patched, then the kernels' own code run
# natively on the host CPU; $(RESULTS)/bench-cost.{txt,csv}.
# Result (README): limit off = base plus one NOP; 256 about 0.3-0.9 ns more
# per bare call natively (1.15x under TCG).
bench-cost: deps
	$(MAKE) -C guest-image bench-cost

# Each step leaves TAP in $(RESULTS); a step that dies without saying why is
# recorded as a failure there. The last line sums everything up.
# The Debian roots of the deb step are made (debootstrap, once, cached) in
# the background from the start: their downloads overlap the steps before.
# Two lanes run side by side from the start: the host's steps (check-host,
# the package build first, shown as they run) and the kernels' (check-kernels: kernel
# builds, each kernel's guest suite as soon as its kernel is built,
# bench-smoke after the first suite (guest-image/Makefile); its output goes
# to $(BUILD)/check-kernels.log, shown when both lanes are done). The host's steps use one CPU most of the time, a
# kernel build every CPU: together they keep a 2-CPU machine busy.
check: deps
	@rm -rf $(RESULTS) && mkdir -p $(RESULTS) $(BUILD)/deb-check
	@for s in bookworm trixie; do \
		./tests/deb/check-deb.sh --cache $$s >$(BUILD)/deb-check/cache-$$s.log 2>&1 & \
	done
	@./tests/repo/check-repo.sh --cache >$(BUILD)/deb-check/cache-repo.log 2>&1 &
	@echo "=== kernels and guest suites: in the background (log: $(BUILD)/check-kernels.log)"
	@$(MAKE) --no-print-directory -j2 check-host check-kernels
	@echo "=== kernels and guest suites (from $(BUILD)/check-kernels.log):"
	@cat $(BUILD)/check-kernels.log
	@./scripts/tap-summary.sh $(RESULTS)

.PHONY: check-host check-kernels
check-host:
	@./scripts/run-step.sh package $(MAKE) --no-print-directory $(DEB)
	@./scripts/run-step.sh rcuqs-ctl $(MAKE) -C rcuqs-ctl check
	@./scripts/run-step.sh man $(MAKE) -C man check
	@./scripts/run-step.sh units $(MAKE) -C systemd-units check
	@./scripts/run-step.sh deb $(MAKE) --no-print-directory check-deb
	@./scripts/run-step.sh repo $(MAKE) --no-print-directory check-repo
	@./scripts/run-step.sh patches $(MAKE) -C kernel-patches check
	@./scripts/run-step.sh trial ./tests/trial/check-trial.sh
	@./scripts/run-step.sh harness ./tests/harness/check-run-guest.sh
	@./scripts/run-step.sh ansible ./tests/ansible/check-ansible.sh
	@./scripts/run-step.sh quickstart-watch ./tests/quickstart/check-watch.sh
	@./scripts/run-step.sh follow ./tests/follow/check-follow.sh

check-kernels:
	@./scripts/run-step.sh guest $(MAKE) -C guest-image check \
		>$(BUILD)/check-kernels.log 2>&1

# The Debian package (debhelper, debian/), built in a copy under $(BUILD).
# Only its build's packages (install-deps.sh deb): no QEMU, clang,
# debootstrap or lintian on an administrator's machine.
deb:
	@./scripts/install-deps.sh deb
	@$(MAKE) --no-print-directory $(DEB)

# lintian, then install, reinstall, upgrade, remove and purge in a
# throwaway Debian 12 root under $(BUILD)/deb-check (tests/deb/), then the
# same lifecycle in a Debian 13 (trixie) root.
check-deb: $(DEB)
	@rc=0; ./tests/deb/check-deb.sh $(DEB) || rc=1; \
	./tests/deb/check-deb.sh $(DEB) trixie || rc=1; exit $$rc

# make kernel-repo's repository with fake kernels (no kernel build): its
# refusals, signature and meta-packages, then apt in a throwaway Debian 12
# root: install, upgrade, unattended-upgrades, rollback, the way back
# (tests/repo/).
check-repo: $(DEB)
	@$(REPO_TOOLS)
	@./tests/repo/check-repo.sh $(DEB)

# The build host's follower of Debian's kernel uploads
# (build-host/rcuqs-kernel-follow, its service and timer; doc/fleet.md)
# with apt, make, the gate, kernel-repo.sh, logger and sendmail as stubs:
# no build, no VM, no network, seconds; also a step of make check.
.PHONY: check-follow
check-follow:
	@mkdir -p $(RESULTS)
	@./tests/follow/check-follow.sh

# /etc/rcuqs/profiles, empty: the administrator's profiles go there
# (rcuqs.profile(5)); a purge of the package leaves those it holds.
# /etc/kernel/postinst.d/zz-rcuqs warns when a Debian kernel is installed
# that GRUB will not boot because an rcuqs kernel sorts above it, and arms
# the trial boot of a new rcuqs kernel (rcuqs-kernel(8));
# /etc/default/rcuqs-kernel configures that, /etc/rcuqs/kernel-checks.d
# holds the administrator's health checks of a trial boot.
sysconfdir ?= /etc
prefix ?= /usr
install:
	for d in $(SUBDIRS); do $(MAKE) -C $$d install || exit; done
	install -d -m 0755 '$(DESTDIR)$(sysconfdir)/rcuqs/profiles'
	install -D -m 0755 scripts/kernel-hook.sh '$(DESTDIR)$(sysconfdir)/kernel/postinst.d/zz-rcuqs'
	install -D -m 0755 scripts/rcuqs-kernel.sh '$(DESTDIR)$(prefix)/sbin/rcuqs-kernel'
	install -D -m 0644 scripts/rcuqs-kernel.default '$(DESTDIR)$(sysconfdir)/default/rcuqs-kernel'
	install -d -m 0755 '$(DESTDIR)$(sysconfdir)/rcuqs/kernel-checks.d'

# rcuqs-ctl's libFuzzer harnesses, FUZZ_SECONDS (30) each; a bounded run is
# also part of rcuqs-ctl's check.
.PHONY: fuzz
fuzz: deps
	$(MAKE) -C rcuqs-ctl fuzz

clean:
	for d in $(SUBDIRS); do $(MAKE) -C $$d clean || exit; done
	rm -rf $(BUILD)/deb-src $(DEB)

distclean: clean
	rm -rf $(BUILD)
