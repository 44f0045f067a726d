# guard.pl -- run ROUGE-1.5.5.pl once per directory, each run in a forked child.
#
# Why: under ROUGE-W a model without tokens makes the script divide by zero
# (wlcs, l. 2454) and die, so every segment predicted to do that runs alone.
# A fresh perl per segment costs ~0.13 s, most of it starting perl, compiling
# the script and loading XML::DOM; here the modules are loaded once and each
# segment's run is a forked child that compiles and runs the UNMODIFIED script
# (do FILE), so that a death costs that child only.
#
# What the child does is what `perl ROUGE-1.5.5.pl ARGS` does: the script's own
# `use lib dirname(__FILE__)`, its `-w` (from its #! line) as $^W, @ARGV and $0
# set, STDOUT and STDERR redirected to files, and on a die the message on
# STDERR and the exit status perl gives an uncaught die ($! if set, else $? >> 8
# if set, else 255).  The script's file is only read, never changed.
#
# Usage: perl guard.pl SCRIPT WORKERS DIRS RUN...
#   DIRS is a file of directories (one a line); each RUN is NAME COUNT ARG...
#   (COUNT arguments).  For each directory the runs are made in order, in that
#   directory, with NAME.out and NAME.err as STDOUT and STDERR; a run starts
#   only if the one before it exited 0.  At most WORKERS children live at once.
#   Prints "DIR<TAB>NAME<TAB>STATUS" per run as it ends (STATUS: the exit
#   status, or minus the signal that killed it).
#
# Only core Perl and what the script itself loads.

use strict;
use warnings;
use File::Basename ();

my ($script, $workers, $dirs_file, @rest);

BEGIN {
    ($script, $workers, $dirs_file, @rest) = @ARGV;
    die "usage: perl guard.pl SCRIPT WORKERS DIRS RUN...\n" unless defined $dirs_file;
    die "guard.pl: cannot read $script\n" unless -r $script;
    # The modules load as in the script's own run (its -w on, its directory
    # first in @INC) but are not imported: the script's `use` imports them.
    $^W = 1;
    require lib;
    lib->import(File::Basename::dirname($script));
    require Getopt::Std;
    require XML::DOM;
    require DB_File;
}

my @runs;
while (@rest) {
    my ($name, $count) = splice @rest, 0, 2;
    die "guard.pl: run $name needs $count arguments\n" if !defined $count || $count > @rest;
    push @runs, [$name, [splice @rest, 0, $count]];
}
open my $list, '<', $dirs_file or die "guard.pl: cannot read $dirs_file: $!\n";
chomp(my @queue = grep { /\S/ } <$list>);
close $list;
@queue = map { [$_, 0] } @queue;    # [directory, index of its next run]

$| = 1;    # nothing buffered here may be copied into a child
my %running;    # pid => job
while (@queue || %running) {
    while (@queue && keys %running < $workers) {
        my $job = shift @queue;
        my $pid = fork;
        die "guard.pl: cannot fork: $!\n" unless defined $pid;
        run_script($job->[0], @{ $runs[ $job->[1] ] }) if $pid == 0;
        $running{$pid} = $job;
    }
    my $pid = waitpid(-1, 0);
    last if $pid <= 0;
    my $job = delete $running{$pid} or next;
    my $status = ($? & 127) ? -($? & 127) : $? >> 8;
    print join("\t", $job->[0], $runs[ $job->[1] ][0], $status), "\n";
    unshift @queue, [$job->[0], $job->[1] + 1] if $status == 0 && $job->[1] + 1 < @runs;
}

# In the child: the script as `perl SCRIPT ARGS` would run it, in DIR.
sub run_script {
    my ($dir, $name, $args) = @_;
    chdir $dir or die "guard.pl: cannot enter $dir: $!\n";
    open STDOUT, '>', "$name.out" or die "guard.pl: cannot write $dir/$name.out: $!\n";
    open STDERR, '>', "$name.err" or die "guard.pl: cannot write $dir/$name.err: $!\n";
    my ($errno, $child_status) = (0, 0);
    # Where the script dies, as perl's own exit status would see it.
    local $SIG{__DIE__} = sub { ($errno, $child_status) = ($! + 0, $? >> 8) };
    local $0 = $script;
    local @ARGV = @$args;
    $^W = 1;
    $? = 0;    # not the status of the parent's last child
    do $script;    # compiled afresh in package main, as a file of its own
    if ($@) {
        print STDERR $@;
        exit($errno & 255 ? $errno : $child_status & 255 ? $child_status : 255);
    }
    exit 0;
}
