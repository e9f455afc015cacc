# Writes the installed simcoll.h: the template (the first file) with its
# line @DECLARATIONS@ replaced by the public sections of simcoll's own
# headers (the other files): the lines between "/* public: ... */" and
# "/* end public */". Plug-ins thus compile against the very text simcoll
# compiles, one definition of each type, and against nothing else.
# usage: awk -v root=SOURCE_DIR -f simcoll_h.awk simcoll.h.in HEADER... > simcoll.h
# SPDX-License-Identifier: GPL-2.0-or-later
NR == FNR {
    template[++lines] = $0
    next
}
/^\/\* end public \*\/$/ {
    inside = 0
    found[FILENAME] = 1
    next
}
inside {
    body = body $0 "\n"
    next
}
/^\/\* public: / {
    inside = 1
    name = FILENAME
    sub("^" root "/", "", name)
    body = body "\n/* from " name " */\n"
}
END {
    if (inside) {
        print "simcoll_h.awk: " name ": a public section has no end" > "/dev/stderr"
        exit 1
    }
    for (i = 2; i < ARGC; i++)
        if (!(ARGV[i] in found)) {
            print "simcoll_h.awk: " ARGV[i] " has no public section" > "/dev/stderr"
            exit 1
        }
    for (i = 1; i <= lines; i++)
        if (template[i] == "@DECLARATIONS@")
            printf "%s", body
        else
            print template[i]
}
