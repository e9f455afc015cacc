#!/bin/sh
# Checks the documentation a new user reads: README.md is at most 200
# lines, and every relative Markdown link in README.md and docs/*.md (and in
# the READMEs of platforms/, bench/, experiments/ and tests/, and
# ARCHITECTURE.md) resolves inside the repository: to a file or folder, and
# where it names a heading (#anchor), to a heading of that page as GitHub
# makes anchors of them. A link that leaves the repository fails, and so
# does a path in README.md or docs/ that does (../shared and such, which a
# clone does not have). Links in code are not links. Web addresses are not
# checked.
# usage: docs.sh SOURCE_DIR
# SPDX-License-Identifier: GPL-2.0-or-later
set -eu
cd "$1"
status=0
lines=$(wc -l <README.md)
if [ "$lines" -gt 200 ]; then
    echo "docs.sh: README.md has $lines lines, more than 200: move the rest into docs/"
    status=1
fi
perl -CSD -e '
use strict;
use warnings;
use Cwd qw(realpath);
use File::Basename qw(dirname);
my $root = realpath(".");
my $bad = 0;
my %anchors;    # page -> { slug => 1 }

# The lines of a page outside code: fenced blocks and indented code blocks
# dropped, inline code spans emptied.
sub prose {
    my ($file) = @_;
    open(my $fh, "<", $file) or die "docs.sh: $file: $!\n";
    my (@out, $fence);
    while (my $l = <$fh>) {
        chomp $l;
        if ($l =~ /^\s*(```|~~~)/) { $fence = !$fence; push @out, ""; next; }
        if ($fence || $l =~ /^(    |\t)/) { push @out, ""; next; }
        $l =~ s/`[^`]*`/``/g;
        push @out, $l;
    }
    return @out;
}

# GitHub: the heading text lowercased, all but letters, digits, "_", "-"
# and spaces dropped, spaces made "-"; a repeated one gets -1, -2, ...
sub anchors {
    my ($file) = @_;
    return $anchors{$file} if $anchors{$file};
    my (%seen, %set, $fence);
    open(my $fh, "<", $file) or return {};
    while (my $l = <$fh>) {
        if ($l =~ /^\s*(```|~~~)/) { $fence = !$fence; next; }
        next if $fence || $l !~ /^#{1,6}\s+(.*?)\s*#*\s*$/;
        my $t = lc $1;
        $t =~ s/\[([^\]]*)\]\([^)]*\)/$1/g;
        $t =~ s/[^\p{Word}\- ]//g;
        $t =~ s/ /-/g;
        my $slug = $seen{$t}++ ? "$t-" . ($seen{$t} - 1) : $t;
        $set{$slug} = 1;
    }
    return $anchors{$file} = \%set;
}

# What a user reads: README.md and docs/, where no path may leave the
# repository either; and the other pages they link to, whose links must
# resolve too.
my @user = ("README.md", sort glob("docs/*.md"));
my @other = ("ARCHITECTURE.md", sort(glob("platforms/*.md"), glob("bench/*.md"),
             glob("experiments/*/README.md"), glob("experiments/*/*/README.md"),
             glob("tests/*/README.md")));
for my $page (@user) {
    # Paths outside the repository, in code too: the shared folder beside
    # the clone, the directories of one machine.
    open(my $fh, "<", $page) or die "docs.sh: $page: $!\n";
    while (my $l = <$fh>) {
        next if $l !~ m{(\.\./shared\b|/work/|/home/)};
        print "docs.sh: $page:$.: a path outside the repository ($1): $l";
        $bad = 1;
    }
    close $fh;
}
for my $page (@user, @other) {
    my @lines = prose($page);
    for my $n (1 .. @lines) {
        my $l = $lines[$n - 1];
        while ($l =~ /\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g) {
            my $target = $1;
            next if $target =~ m{^(https?|mailto|ftp):}i;
            my ($path, $anchor) = $target =~ /^([^#]*)(?:#(.*))?$/;
            my $file = $path eq "" ? $page : dirname($page) . "/" . $path;
            my $real = realpath($file);
            if (!defined $real || !-e $real) {
                print "docs.sh: $page:$n: link to $target: no such file\n";
                $bad = 1;
                next;
            }
            if ($real ne $root && index($real, "$root/") != 0) {
                print "docs.sh: $page:$n: link to $target leaves the repository\n";
                $bad = 1;
                next;
            }
            next if !defined $anchor || $anchor eq "";
            if ($real !~ /\.md$/ || !anchors($real)->{$anchor}) {
                print "docs.sh: $page:$n: link to $target: no heading #$anchor there\n";
                $bad = 1;
            }
        }
    }
}
exit $bad;
' || status=1
exit $status
