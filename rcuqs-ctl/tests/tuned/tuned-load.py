#!/usr/bin/python3
# tuned-load.py TUNED_PROFILES EXPORT_DIR TUNED_NAME SHOW_JSON BOOT_ARGS_JSON
#
# Load an exported profile with tuned's own profile loader (the Python
# package of Debian's tuned, unpacked, on PYTHONPATH) the way the tuned
# daemon does: its shipped profiles in TUNED_PROFILES (/usr/lib/tuned) with
# EXPORT_DIR standing for /etc/tuned, which wins. Then check the merged
# profile against what rcuqs-ctl says the rcuqs profile is:
#   - include= went through the exported chain only, in the order of the
#     rcuqs profile's files (a tuned profile of the same name never
#     answers instead);
#   - [sysfs] holds exactly the runtime settings, as
#     /sys/module/MODULE/parameters/PARAM = value;
#   - the kernel command line that tuned's bootloader plugin makes of the
#     merged [bootloader] options is exactly 'rcuqs-ctl boot-args NAME';
#   - summary is the profile's description; no other unit is there.
# Prints what differs and exits 1; exits 0 when all holds.
import json
import os
import sys

import tuned.profiles as profiles
import tuned.profiles.variables
from tuned.plugins.plugin_bootloader import BootloaderPlugin

tuned_dir, export_dir, name, show_file, args_file = sys.argv[1:6]
with open(show_file) as f:
    show = json.load(f)
with open(args_file) as f:
    boot_args = json.load(f)["boot_args"]

loaded = []


class RecordingLocator(profiles.Locator):
    """tuned's Locator, remembering which file answered each include."""
    __slots__ = []

    def get_config(self, profile_name, skip_files=None):
        path = super().get_config(profile_name, skip_files)
        if path:
            loaded.append(path)
        return path


locator = RecordingLocator([tuned_dir, export_dir])
loader = profiles.Loader(locator, profiles.Factory(), profiles.Merger(), None,
                         tuned.profiles.variables.Variables())
try:
    p = loader.load(name)
except Exception as e:  # tuned's own verdict on the files
    print("tuned cannot load %s: %s %s" % (name, type(e).__name__, e))
    sys.exit(1)

bad = []


def expect(what, got, want):
    if got != want:
        bad.append("%s: tuned has %r, rcuqs-ctl says %r" % (what, got, want))


# The chain: one exported profile per rcuqs profile of the include chain
# (an /etc override that extends the shipped profile of its name is one).
chain = []
for f in show["files"]:
    n = "rcuqs-" + os.path.basename(f)[:-len(".profile")]
    if not chain or chain[-1] != n:
        chain.append(n)
want_files = [os.path.normpath(os.path.join(export_dir, n, "tuned.conf"))
              for n in chain]
expect("files loaded, including through include=", loaded, want_files)

want_sysfs = {}
for s in show["settings"]:
    if s["runtime"]:
        module, param = s["name"].split(".", 1)
        want_sysfs["/sys/module/%s/parameters/%s" % (module, param)] = s["value"]
sysfs = dict(p.units["sysfs"].options) if "sysfs" in p.units else {}
expect("[sysfs] after merging", sysfs, want_sysfs)

if "bootloader" in p.units:
    # The bootloader plugin's own merge of the cmdline* options; it needs
    # nothing of the plugin instance, so none is made (its constructor
    # looks at the host's GRUB).
    eff = BootloaderPlugin._get_effective_options(BootloaderPlugin,
                                                  p.units["bootloader"].options)
    cmdline = eff.get("cmdline") or ""
else:
    cmdline = ""
expect("kernel command line from [bootloader]", cmdline, boot_args)

# The description as the export writes it: '#' as U+FF03 (tuned would take
# it for a comment after a blank), control characters as blanks; bytes
# that are not UTF-8 are U+FFFD in both.
desc = show["description"]
if desc is not None:
    desc = "".join("\uff03" if c == "#" else " " if ord(c) < 0x20 or c == "\x7f" else c
                   for c in desc)
expect("[main] summary", p.options.get("summary"), desc)
expect("[main] options left after include", sorted(k for k in p.options if k != "summary"), [])
extra = sorted(u for u in p.units if u not in ("sysfs", "bootloader"))
expect("units besides sysfs and bootloader", extra, [])

for b in bad:
    print(b)
sys.exit(1 if bad else 0)
