# The rcuqs .deb: its path and how it is built, for the top Makefile and
# guest-image/Makefile (whose initramfs installs the .deb's contents).
# The includer sets TOP (the checkout) and BUILD.

DEB_VERSION := $(shell head -n 1 $(TOP)/debian/changelog | cut -d ' ' -f 2 | tr -d '()')
DEB_ARCH := $(shell dpkg --print-architecture)
DEB := $(BUILD)/rcuqs_$(DEB_VERSION)_$(DEB_ARCH).deb
# Everything the package build reads (see scripts/build-deb.sh).
DEB_SRCS := $(TOP)/Makefile $(TOP)/scripts/build-deb.sh $(TOP)/scripts/kernel-hook.sh $(wildcard \
	$(TOP)/debian/* $(TOP)/debian/source/* $(TOP)/debian/tests/* \
	$(TOP)/rcuqs-ctl/Makefile $(TOP)/rcuqs-ctl/*.[ch] $(TOP)/rcuqs-ctl/profiles/* \
	$(TOP)/rcuqs-ctl/completion/* \
	$(TOP)/rcuqs-ctl/tests/unit/* \
	$(TOP)/systemd-units/Makefile $(TOP)/systemd-units/*.service \
	$(TOP)/man/Makefile $(TOP)/man/*.[578])

# One build at a time: make check's two lanes may both find the .deb out
# of date (the host's package step, a kernel's initramfs).
$(DEB): $(DEB_SRCS)
	@mkdir -p $(BUILD)
	flock $(BUILD)/deb-build.lock $(TOP)/scripts/build-deb.sh $(BUILD)
