/* nb-instructions: runs a program that measures with the nanobench harness under valgrind's
 * callgrind, so that its nb_run calls count instructions instead of timing
 * (nb_valgrind_run; doc/instructions.md). The program prints its own table. */
#define _GNU_SOURCE /* strsignal in older glibc headers */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "bench/nanobench.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#define PROG "nb-instructions"

static void usage(FILE *out)
{
    fputs("Usage: " PROG " PROGRAM [ARGUMENTS...]\n"
          "\n"
          "Runs PROGRAM under valgrind's callgrind (--collect-atstart=no --branch-sim=yes),\n"
          "where every nb_run of the nanobench harness counts the instructions of its\n"
          "measured loop instead of timing it: the program's table gains ins/<unit>,\n"
          "bra/<unit> and the simulated branch miss%. The program must be built with\n"
          "valgrind's client-request header (Debian package valgrind). The exit status is\n"
          "the program's; 1 when it could not run, crashed or counted nothing.\n",
          out);
}

int main(int argc, char **argv)
{
    nb_valgrind_report rep;
    if (argc < 2 || argv[1][0] == '-') {
        if (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
            usage(stdout);
            return 0;
        }
        fprintf(stderr, PROG ": %s (usage: " PROG " PROGRAM [ARGUMENTS...])\n",
                argc < 2 ? "no program given" : "unknown option");
        return 1;
    }
    if (nb_valgrind_run(argv + 1, NULL, &rep) != 0) {
        if (errno == ENOENT)
            fprintf(stderr, PROG ": valgrind is not installed (not found in PATH); it is in "
                    "the Debian package valgrind\n");
        else
            fprintf(stderr, PROG ": cannot run valgrind: %s\n", strerror(errno));
        return 1;
    }
    if (rep.signal) {
        fprintf(stderr, PROG ": %s crashed under valgrind (signal %d, %s)%s%s%s; valgrind's "
                "report, if it made one, is above\n", argv[1], rep.signal,
                strsignal(rep.signal), rep.last[0] ? " after the last counted epoch of '" : "",
                rep.last, rep.last[0] ? "'" : "");
        return 1;
    }
    if (rep.dumps == 0 && (rep.exit_status == 0 || rep.exit_status == 127)) {
        if (rep.exit_status == 127)
            fprintf(stderr, PROG ": valgrind could not start %s\n", argv[1]);
        else
            fprintf(stderr, PROG ": %s counted nothing: it was built without valgrind's "
                    "client-request header (valgrind/callgrind.h, Debian package valgrind), "
                    "or ran no nb_run\n", argv[1]);
        return 1;
    }
    return rep.exit_status;
}
