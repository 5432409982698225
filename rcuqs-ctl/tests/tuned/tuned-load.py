#!/usr/bin/python3
# tuned-load.py TUNED_PROFILES EXPORT_DIR PROFILES SHOW_JSON BOOT_ARGS_JSON [CMDLINE]
#
# Load an exported profile with tuned's own profile loader (the Python
# package of Debian's tuned, unpacked, on PYTHONPATH) the way the tuned
# daemon does: its shipped profiles in TUNED_PROFILES (/usr/lib/tuned) with
# EXPORT_DIR standing for /etc/tuned, which wins. PROFILES are what
# 'tuned-adm profile' takes: the exported rcuqs-NAME last, any profiles
# before it (the base: "cpu-partitioning rcuqs-latency") merged first, the
# later winning, as the daemon's Loader.load() of the list does. Then check
# the merged profile against the base loaded alone by the same loader and
# what rcuqs-ctl says the rcuqs profile is:
#   - include= went through the base's files, then the exported chain
#     only, in the order of the rcuqs profile's files (a tuned profile of
#     the same name never answers instead);
#   - [sysfs] holds the base's entries and exactly the runtime settings,
#     as /sys/module/MODULE/parameters/PARAM = value, neither replacing
#     the other;
#   - the kernel command line that tuned's bootloader plugin makes of the
#     merged [bootloader] options, its variables expanded, is the base's
#     followed by exactly 'rcuqs-ctl boot-args NAME', and CMDLINE when it
#     is given (blanks aside: the line a man page quotes); no parameter is
#     on it twice (for rcu_nocbs= the kernel takes the later one); the
#     base's other [bootloader] options are kept;
#   - summary is the profile's description (the base's other [main]
#     options stay); every other unit is the base's, with its options.
# Variables files that the base includes from /etc/tuned are read from
# EXPORT_DIR; with TUNED_LOAD_CPUS_ONLINE set, tuned's functions see that
# CPU list online instead of the host's (cpu-partitioning asserts that
# its isolated_cores are online).
# Prints what differs and exits 1; exits 0 when all holds.
import json
import os
import sys

import tuned.profiles as profiles
import tuned.profiles.variables
import tuned.utils.commands
from tuned.plugins.plugin_bootloader import BootloaderPlugin

tuned_dir, export_dir, names, show_file, args_file = sys.argv[1:6]
quoted = " ".join(sys.argv[6].split()) if len(sys.argv) > 6 and sys.argv[6] else None
*base_names, name = names.split()
with open(show_file) as f:
    show = json.load(f)
with open(args_file) as f:
    boot_args = json.load(f)["boot_args"]


class RecordingLocator(profiles.Locator):
    """tuned's Locator, remembering which file answered each include."""
    __slots__ = ["loaded"]

    def get_config(self, profile_name, skip_files=None):
        path = super().get_config(profile_name, skip_files)
        if path:
            self.loaded.append(path)
        return path


class ScratchVariables(tuned.profiles.variables.Variables):
    """tuned's Variables, with EXPORT_DIR standing for /etc/tuned."""

    def add_from_file(self, filename):
        if filename.startswith("/etc/tuned/"):
            filename = os.path.join(export_dir, filename[len("/etc/tuned/"):])
        return super().add_from_file(filename)


online = os.environ.get("TUNED_LOAD_CPUS_ONLINE")
if online:
    read_file = tuned.utils.commands.commands.read_file

    def fake_online(self, f, *args, **kwargs):
        if f == "/sys/devices/system/cpu/online":
            return online + "\n"
        return read_file(self, f, *args, **kwargs)
    tuned.utils.commands.commands.read_file = fake_online


def load(names):
    """The merged profile, the files loaded, and the kernel command line
    that the bootloader plugin makes of it, with its variables expanded."""
    locator = RecordingLocator([tuned_dir, export_dir])
    locator.loaded = []
    variables = ScratchVariables()
    loader = profiles.Loader(locator, profiles.Factory(), profiles.Merger(), None,
                             variables)
    try:
        p = loader.load(names)
    except Exception as e:  # tuned's own verdict on the files
        print("tuned cannot load %s: %s %s" % (" ".join(names), type(e).__name__, e))
        sys.exit(1)
    if "bootloader" in p.units:
        # The bootloader plugin's own merge of the cmdline* options, then
        # the expansion it does when it applies them; it needs nothing of
        # the plugin instance, so none is made (its constructor looks at
        # the host's GRUB).
        eff = BootloaderPlugin._get_effective_options(BootloaderPlugin,
                                                      p.units["bootloader"].options)
        cmdline = variables.expand(eff.get("cmdline") or "")
    else:
        cmdline = ""
    return p, locator.loaded, cmdline


p, loaded, cmdline = load(base_names + [name])
if base_names:
    base, base_loaded, base_cmdline = load(base_names)
    base_units = base.units
    base_options = dict(base.options)
else:
    base_loaded, base_cmdline, base_units, base_options = [], "", {}, {}

bad = []


def expect(what, got, want):
    if got != want:
        bad.append("%s: tuned has %r, expected %r" % (what, got, want))


# The chain: one exported profile per rcuqs profile of the include chain
# (an /etc override that extends the shipped profile of its name is one).
chain = []
for f in show["files"]:
    n = "rcuqs-" + os.path.basename(f)[:-len(".profile")]
    if not chain or chain[-1] != n:
        chain.append(n)
want_files = [os.path.normpath(os.path.join(export_dir, n, "tuned.conf"))
              for n in chain]
expect("files loaded, including through include=", loaded, base_loaded + want_files)

want_sysfs = {}
for s in show["settings"]:
    if s["runtime"]:
        module, param = s["name"].split(".", 1)
        want_sysfs["/sys/module/%s/parameters/%s" % (module, param)] = s["value"]


def options(units, unit, keep=lambda k: True):
    return {k: v for k, v in units[unit].options.items() if keep(k)} if unit in units else {}


base_sysfs = options(base_units, "sysfs")
sysfs = options(p.units, "sysfs")
expect("[sysfs] after merging", sysfs, dict(base_sysfs, **want_sysfs))
expect("[sysfs] entries of %s replaced" % " ".join(base_names),
       sorted(set(base_sysfs) & set(want_sysfs)), [])

expect("kernel command line from [bootloader]", cmdline,
       " ".join(c for c in (base_cmdline, boot_args) if c))
params = [t.split("=", 1)[0] for t in cmdline.split()]
expect("kernel command line parameters given twice",
       sorted(set(t for t in params if params.count(t) > 1)), [])
if quoted is not None:
    expect("kernel command line, as quoted", cmdline, quoted)


def not_cmdline(k):
    return not str(k).startswith("cmdline")


expect("[bootloader] options besides cmdline",
       options(p.units, "bootloader", not_cmdline), options(base_units, "bootloader", not_cmdline))

# The description as the export writes it: '#' as U+FF03 (tuned would take
# it for a comment after a blank), control characters as blanks; bytes
# that are not UTF-8 are U+FFFD in both.
desc = show["description"]
if desc is not None:
    desc = "".join("\uff03" if c == "#" else " " if ord(c) < 0x20 or c == "\x7f" else c
                   for c in desc)
expect("[main] summary", p.options.get("summary"), desc if desc is not None else
       base_options.get("summary"))
expect("[main] options left after include", sorted(k for k in p.options if k != "summary"),
       sorted(k for k in base_options if k != "summary"))
extra = sorted(u for u in p.units if u not in ("sysfs", "bootloader") and u not in base_units)
expect("units besides sysfs, bootloader and those of the base", extra, [])
for u in base_units:
    if u not in ("sysfs", "bootloader"):
        expect("[%s] of %s after merging" % (u, " ".join(base_names)),
               options(p.units, u), options(base_units, u))

for b in bad:
    print(b)
sys.exit(1 if bad else 0)
