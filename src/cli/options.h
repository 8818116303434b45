/* options.h — one table of options per command: getopt_long parses it (--name VALUE, --name=VALUE, -h, --help) and
 * prints it as the help text. */
/* SPDX-License-Identifier: MIT */
#ifndef HOOKE_OPTIONS_H
#define HOOKE_OPTIONS_H

#include <stdio.h>

/* One option of a command. The table ends with a row whose name is NULL. */
typedef struct hk_option {
    int id;                        /* what hk_opt_next returns for it (the command's own enum, >= 0) */
    const char *name;              /* "steps" for --steps */
    const char *value;             /* the value's name in the help text ("N", "FILE"); NULL: a switch, no value */
    const char *help;              /* its lines in the help text, separated by '\n' */
    const char *(*help_arg)(void); /* not NULL: help is a format with one %s, this gives its text */
} hk_option;

typedef struct hk_command {
    const char *name;         /* "run"; NULL for the top level (hooke --version) */
    const hk_option *options; /* every option but --help / -h, which every command has */
} hk_command;

/* The parse of one command line, argv[0] the command's name. */
typedef struct hk_opt_parser {
    const hk_command *cmd;
    int argc;
    char **argv;
    char flag[64];  /* the option hk_opt_next returned last, as "--NAME", for messages */
    int rest;       /* after "--": the next argument to hand out, else 0 */
    void *longopts; /* struct option[] for getopt_long */
} hk_opt_parser;

enum {
    HK_OPT_END = -1,   /* no more arguments */
    HK_OPT_ERROR = -2, /* a message has been printed: exit status 1 */
    HK_OPT_HELP = -3,  /* --help or -h */
    HK_OPT_ARG = -4,   /* an argument that is not an option (a file name), in *value */
};

/* Starts parsing argv[1..argc) for cmd. getopt_long keeps global state:
 * one parse at a time. */
void hk_opt_begin(hk_opt_parser *p, const hk_command *cmd, int argc, char **argv);
/* The next item: an option's id with its value in *value (NULL for a
 * switch, and for a value option given last with no value: its checker
 * prints "--NAME expects ..., got 'nothing'"), or one of the HK_OPT_*
 * above. Unknown or abbreviated options, and a value given to a switch,
 * print "hooke: error: ..." and give HK_OPT_ERROR. */
int hk_opt_next(hk_opt_parser *p, const char **value);
/* Frees what hk_opt_begin allocated. */
void hk_opt_end(hk_opt_parser *p);

/* The table as help lines: "  --NAME VALUE      help", continuation lines
 * indented to the help column, and --help last. */
void hk_opt_print(FILE *f, const hk_command *cmd);

#endif
