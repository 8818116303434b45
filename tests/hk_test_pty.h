/* hk_test_pty.h — runs the hooke program on a pseudo-terminal, for the tests of what it shows on a terminal. */
/* SPDX-License-Identifier: MIT */
#ifndef HK_TEST_PTY_H
#define HK_TEST_PTY_H

#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs hooke with argv (NULL-terminated) on a pseudo-terminal of cols columns, stdout into out_path; returns
 * what the terminal received (malloc'd) and the exit status in *status; NULL when no pseudo-terminal opens.
 * out_path NULL: stdout is the terminal too. */
static inline char *hooke_on_pty(char *const argv[], int cols, const char *out_path, int *status)
{
    struct winsize ws = {.ws_row = 24, .ws_col = (unsigned short)cols};
    int master;
    fflush(NULL);
    const pid_t pid = forkpty(&master, NULL, NULL, &ws);
    if (pid < 0) return NULL;
    if (pid == 0) {
        if (out_path) {
            const int fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0) _exit(126);
            close(fd);
        }
        execv(HOOKE_BIN, argv);
        _exit(127);
    }
    size_t cap = 4096, len = 0;
    char *s = malloc(cap);
    assert_non_null(s);
    for (;;) {
        if (cap - len < 1024) {
            cap *= 2;
            s = realloc(s, cap);
            assert_non_null(s);
        }
        const ssize_t n = read(master, s + len, cap - len - 1);
        if (n > 0)
            len += (size_t)n;
        else if (!(n < 0 && errno == EINTR))
            break; /* EIO: the program has exited and closed the terminal */
    }
    s[len] = '\0';
    close(master);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return s;
}

/* After hooke_on_pty: where no pseudo-terminal opens (a minimal chroot or container without /dev/pts), the test
 * says so and is skipped; anywhere else it runs. */
#define HK_PTY_OR_SKIP(tty)                                                                                            \
    do {                                                                                                               \
        if (!(tty)) {                                                                                                  \
            print_message("no pseudo-terminal (%s): the terminal mode is not tested here\n", strerror(errno));       \
            skip();                                                                                                    \
        }                                                                                                              \
    } while (0)

/* The terminal's text with each carriage return shown as '|', for messages. */
static inline void hk_pty_show(char *text)
{
    for (char *c = text; *c; c++)
        if (*c == '\r') *c = '|';
}

#endif
