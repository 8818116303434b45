/* test_part.c — a world shared out over R ranks within one process (a thread per rank, rows copied as messages). */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "hk_test.h"

#include <pthread.h>
#include <stdint.h>

#include "distribute.h"
#include "scene.h"
#include "world.h"

/*
 * core/dist/part.c without MPI: R copies of a world, each shared out as
 * rank r of R, each stepped by its own thread (its own OpenMP team), the
 * halo "messages" copied from the sending rank's arrays between two
 * barriers of the R threads. The final state, gathered from each rank's
 * particles, must be the bits of the world stepped alone. This runs in
 * every build (sanitizers included); tests/test_mpi.c does the same
 * through MPI and the program.
 */

enum { MAX_RANKS = 4 };

/* A message between two ranks' threads (part.h hk_part_ops.send), queued until received. */
typedef struct note {
    struct note *next;
    size_t bytes;
    unsigned char data[];
} note;

typedef struct net {
    int R;
    hk_world *w[MAX_RANKS];
    pthread_barrier_t bar;
    int flag[MAX_RANKS];
    /* exchange: each rank's messages and arrays */
    const hk_halo_msg *msgs[MAX_RANKS];
    int nmsgs[MAX_RANKS];
    void *const *arrays[MAX_RANKS];
    void *sum[MAX_RANKS]; /* sum_reals, sum_doubles, reduce, bcast: each rank's values */
    pthread_mutex_t lock; /* the queues of send and recv */
    pthread_cond_t sent;
    note *queue[MAX_RANKS][MAX_RANKS]; /* [from][to], oldest first */
    int64_t steps;
    uint64_t hash[MAX_RANKS];
} net;

typedef struct rank_ctx {
    net *n;
    int rank;
} rank_ctx;

/* Where the peer holds the entries of message m (a receive of this rank's): the `first` of the peer's matching send,
 * the one to this rank with the same key (each rank's storage numbers its particles its own way). */
static int64_t peer_first(const hk_halo_msg *m, const hk_halo_msg *peer, int npeer, int me)
{
    for (int k = 0; k < npeer; k++)
        if (peer[k].send && peer[k].peer == me && peer[k].key == m->key) {
            assert_int_equal(peer[k].count, m->count);
            return peer[k].first;
        }
    fail_msg("no message of rank %d answers a receive of rank %d at key %lld", m->peer, me, (long long)m->key);
    return -1;
}

/* The rows each rank sends stay untouched until the second barrier of
 * halo_finish (sweep.c), so nothing is copied at the start. */
static void halo_start(void *ctx, const hk_world *w, int body)
{
    (void)ctx;
    (void)w;
    (void)body;
}

/* Every rank has posted (first barrier); each copies what it receives from
 * the senders' own arrays; the second barrier lets the senders go on. */
static void halo_finish(void *ctx, const hk_world *w, int body)
{
    rank_ctx *c = ctx;
    pthread_barrier_wait(&c->n->bar);
    const hk_part_body *pb = &w->part->body[body];
    for (int m = 0; m < pb->nmsg; m++) {
        const hk_halo_msg *msg = &pb->msg[m];
        if (msg->send) continue;
        const hk_world *pw = c->n->w[msg->peer];
        const hk_part_body *pp = &pw->part->body[body];
        const int64_t from = peer_first(msg, pp->msg, pp->nmsg, c->rank);
        const hk_real *src[6] = {pw->p.qx, pw->p.qy, pw->p.qz, pw->p.vx, pw->p.vy, pw->p.vz};
        hk_real *dst[6] = {w->p.qx, w->p.qy, w->p.qz, w->p.vx, w->p.vy, w->p.vz};
        for (int k = 0; k < 6; k++) memcpy(dst[k] + msg->first, src[k] + from, (size_t)msg->count * sizeof(hk_real));
    }
    pthread_barrier_wait(&c->n->bar);
}

static int any(void *ctx, int flag)
{
    rank_ctx *c = ctx;
    c->n->flag[c->rank] = flag != 0;
    pthread_barrier_wait(&c->n->bar);
    int v = 0;
    for (int r = 0; r < c->n->R; r++) v |= c->n->flag[r];
    pthread_barrier_wait(&c->n->bar); /* every rank has read the flags before any writes its next */
    return v;
}

/* As halo_finish, for the messages and arrays each rank names (published before the first barrier). */
static void exchange(void *ctx, const hk_halo_msg *msg, int nmsg, hk_real *const *a, int n)
{
    rank_ctx *c = ctx;
    c->n->msgs[c->rank] = msg;
    c->n->nmsgs[c->rank] = nmsg;
    c->n->arrays[c->rank] = (void *const *)a;
    pthread_barrier_wait(&c->n->bar);
    for (int m = 0; m < nmsg; m++) {
        if (msg[m].send) continue;
        const int p = msg[m].peer;
        const int64_t from = peer_first(&msg[m], c->n->msgs[p], c->n->nmsgs[p], c->rank);
        for (int k = 0; k < n; k++)
            memcpy(a[k] + msg[m].first, (const hk_real *)c->n->arrays[p][k] + from,
                   (size_t)msg[m].count * sizeof(hk_real));
    }
    pthread_barrier_wait(&c->n->bar);
}

/* v = the sum over the ranks in rank order, n hk_reals or doubles (any
 * order gives these bits: part.h), summed in double, which holds each
 * value exactly, into a copy that every rank writes back once all have
 * read. */
static void sum_over_ranks(void *ctx, void *v, int64_t n, int doubles)
{
    rank_ctx *c = ctx;
    double *acc = calloc((size_t)n, sizeof *acc);
    assert_non_null(acc);
    c->n->sum[c->rank] = v;
    pthread_barrier_wait(&c->n->bar);
    for (int r = 0; r < c->n->R; r++)
        for (int64_t i = 0; i < n; i++) {
            const double x = doubles ? ((const double *)c->n->sum[r])[i] : ((const hk_real *)c->n->sum[r])[i];
            acc[i] = r ? acc[i] + x : x;
        }
    pthread_barrier_wait(&c->n->bar);
    for (int64_t i = 0; i < n; i++) {
        if (doubles)
            ((double *)v)[i] = acc[i];
        else
            ((hk_real *)v)[i] = (hk_real)acc[i];
    }
    free(acc);
}

static void sum_reals(void *ctx, hk_real *v, int64_t n) { sum_over_ranks(ctx, v, n, 0); }
static void sum_doubles(void *ctx, double *v, int64_t n) { sum_over_ranks(ctx, v, n, 1); }

static void reduce(void *ctx, void *v, int n, hk_reduce_op op)
{
    rank_ctx *c = ctx;
    const int doubles = op == HK_REDUCE_MAX_F64 || op == HK_REDUCE_MIN_F64;
    const size_t size = doubles ? sizeof(double) : sizeof(int64_t);
    unsigned char *out = malloc((size_t)n * size);
    assert_non_null(out);
    c->n->sum[c->rank] = v;
    pthread_barrier_wait(&c->n->bar);
    memcpy(out, c->n->sum[0], (size_t)n * size);
    for (int r = 1; r < c->n->R; r++)
        for (int i = 0; i < n; i++) {
            if (doubles) {
                double *o = (double *)out + i, x = ((const double *)c->n->sum[r])[i];
                *o = op == HK_REDUCE_MAX_F64 ? fmax(*o, x) : fmin(*o, x);
            } else {
                int64_t *o = (int64_t *)out + i, x = ((const int64_t *)c->n->sum[r])[i];
                *o = op == HK_REDUCE_MIN_I64 ? (x < *o ? x : *o) : op == HK_REDUCE_MAX_I64 ? (x > *o ? x : *o) : *o + x;
            }
        }
    pthread_barrier_wait(&c->n->bar);
    memcpy(v, out, (size_t)n * size);
    free(out);
}

static void bcast(void *ctx, void *buf, size_t bytes, int root)
{
    rank_ctx *c = ctx;
    if (c->rank == root) c->n->sum[root] = buf;
    pthread_barrier_wait(&c->n->bar);
    if (c->rank != root) memcpy(buf, c->n->sum[root], bytes);
    pthread_barrier_wait(&c->n->bar);
}

static void send(void *ctx, int peer, const void *buf, size_t bytes)
{
    rank_ctx *c = ctx;
    note *m = malloc(sizeof *m + bytes);
    assert_non_null(m);
    m->next = NULL;
    m->bytes = bytes;
    memcpy(m->data, buf, bytes);
    pthread_mutex_lock(&c->n->lock);
    note **q = &c->n->queue[c->rank][peer];
    while (*q) q = &(*q)->next;
    *q = m;
    pthread_cond_broadcast(&c->n->sent);
    pthread_mutex_unlock(&c->n->lock);
}

static void recv(void *ctx, int peer, void *buf, size_t bytes)
{
    rank_ctx *c = ctx;
    pthread_mutex_lock(&c->n->lock);
    while (!c->n->queue[peer][c->rank]) pthread_cond_wait(&c->n->sent, &c->n->lock);
    note *m = c->n->queue[peer][c->rank];
    c->n->queue[peer][c->rank] = m->next;
    pthread_mutex_unlock(&c->n->lock);
    assert_int_equal(m->bytes, bytes);
    memcpy(buf, m->data, bytes);
    free(m);
}

static const hk_part_ops fake_ops = {halo_start,  halo_finish, any,   exchange, sum_reals,
                                     sum_doubles, reduce,      bcast, send,     recv};

/* A rank's thread: its steps, then the state hash, a relay over the ranks (part.h). */
static void *rank_main(void *arg)
{
    rank_ctx *c = arg;
    for (int64_t s = 0; s < c->n->steps; s++) hk_world_step(c->n->w[c->rank]);
    c->n->hash[c->rank] = hk_world_state_hash(c->n->w[c->rank]);
    return NULL;
}

static hk_world *load(const char *text, const char *integrator)
{
    char err[512];
    hk_world *w = hk_world_parse_scene(text, "test_part.scene", NULL, err, sizeof err);
    if (!w) {
        print_error("%s\n", err);
        fail();
    }
    w->def.full_team = 1; /* every pass on the whole team: the thread counts compared are the ones run */
    if (integrator) {
        hk_integrator_def d = hk_world_integrator(w);
        const int kind = hk_integrator_from_name(integrator);
        assert_true(kind >= 0);
        d.kind = (hk_integrator_kind)kind;
        assert_int_equal(hk_world_set_integrator(w, &d), 0);
    }
    return w;
}

/* Whether R deferred ranks of T threads run. The release build runs every pair: that is where the bits are
 * checked. The sanitizer and Debug builds (HK_TEST_SLOW_BUILD), which look for memory errors and races rather than
 * bits, run 2 ranks of 2 threads and 4 of 1 (3 ranks run in the shared-out build, below): every rank count and
 * thread count still under the sanitizer, in 4 runs of a scene where the release build takes 8. */
static int runs_ranks(int R, int T)
{
#ifdef HK_TEST_SLOW_BUILD
    return (R == 2 && T == 2) || (R == 4 && T == 1);
#else
    (void)R;
    (void)T;
    return 1;
#endif
}

/* The scene stepped alone on 1 thread, then over R = 2..4 ranks of T = 1, 2 threads: the same hash on every rank.
 * Each rank's world is built with its lattices deferred, each rank building the rows it holds (deferred: as hooke
 * run builds them), or built whole and shared out (hk_world_distribute keeps the rows it holds: the library's
 * way, on 3 ranks of 2 threads). */
static void same_bits_as(const char *text, const char *integrator, int64_t steps, int deferred)
{
    hk_world *alone = load(text, integrator);
    hk_world_set_threads(alone, 1);
    for (int64_t s = 0; s < steps; s++) hk_world_step(alone);
    const uint64_t want = hk_world_state_hash(alone);
    hk_world_destroy(alone);
    for (int R = deferred ? 2 : 3; R <= (deferred ? MAX_RANKS : 3); R++)
        for (int T = deferred ? 1 : 2; T <= 2; T++) {
            if (deferred && !runs_ranks(R, T)) continue;
            net n;
            memset(&n, 0, sizeof n);
            n.R = R;
            n.steps = steps;
            assert_int_equal(pthread_barrier_init(&n.bar, NULL, (unsigned)R), 0);
            assert_int_equal(pthread_mutex_init(&n.lock, NULL), 0);
            assert_int_equal(pthread_cond_init(&n.sent, NULL), 0);
            rank_ctx ctx[MAX_RANKS];
            pthread_t th[MAX_RANKS];
            for (int r = 0; r < R; r++) {
                if (deferred) {
                    char err[512];
                    hk_scene sc;
                    hk_world_def base = hk_default_world_def();
                    base.full_team = 1;
                    assert_int_equal(hk_scene_parse_shared(text, "test_part.scene", &base, R, &sc, err, sizeof err), 0);
                    n.w[r] = hk_scene_take_world(&sc);
                    if (integrator) {
                        hk_integrator_def d = hk_world_integrator(n.w[r]);
                        d.kind = (hk_integrator_kind)hk_integrator_from_name(integrator);
                        assert_int_equal(hk_world_set_integrator(n.w[r], &d), 0);
                    }
                } else {
                    n.w[r] = load(text, integrator);
                }
                hk_world_set_threads(n.w[r], T);
                ctx[r] = (rank_ctx){&n, r};
                assert_int_equal(hk_world_distribute(n.w[r], r, R, &fake_ops, &ctx[r]), 0);
            }
            /* every particle is computed by exactly one rank, which holds it */
            int covered = 0;
            for (int r = 0; r < R; r++) {
                int one[2];
                const int *span, spans = hk_world_spans(n.w[r], one, &span);
                for (int s = 0; s < spans; s++) covered += span[2 * s + 1] - span[2 * s];
                assert_true(n.w[r]->p.count <= n.w[r]->gcount);
            }
            assert_int_equal(covered, n.w[0]->gcount);
            for (int r = 0; r < R; r++) assert_int_equal(pthread_create(&th[r], NULL, rank_main, &ctx[r]), 0);
            for (int r = 0; r < R; r++) assert_int_equal(pthread_join(th[r], NULL), 0);
            for (int r = 0; r < R; r++)
                if (n.hash[r] != want) {
                    print_error("%d ranks x %d threads (%s%s): rank %d's hash %016llx, alone %016llx\n", R, T,
                                integrator ? integrator : "the scene's", deferred ? ", deferred" : "", r,
                                (unsigned long long)n.hash[r], (unsigned long long)want);
                    fail();
                }
            for (int r = 0; r < R; r++) hk_world_destroy(n.w[r]);
            pthread_barrier_destroy(&n.bar);
            pthread_mutex_destroy(&n.lock);
            pthread_cond_destroy(&n.sent);
        }
}

/* Both ways of building each rank's part. */
static void same_bits(const char *text, const char *integrator, int64_t steps)
{
    same_bits_as(text, integrator, steps, 0);
    same_bits_as(text, integrator, steps, 1);
}

/* A cloth split into slabs (a halo of 2 rows), pressed against a sphere. */
static const char cloth[] = "world\n  gravity 0 -9.81 0\n  air_drag 2e-5\nend\n"
                            "sphere\n  center 0.43 0.92 0.43\n  radius 0.1\n  loss 0.2\nend\n"
                            "body cloth\n  nx 72\n  ny 72\n  spacing 0.012\n  origin 0 1 0\n  u 1 0 0\n  v 0 0 1\n"
                            "  mass 2e-4\n  pins two_corners\n  springs structural k 200 damping 0.02\n"
                            "  springs shear k 50 damping 0.02\n  springs bend k 20 damping 0.02\nend\n"
                            "run\n  integrator semi_implicit_euler\n  dt 2.5e-4\nend\n";

/* A 52-neighbour jelly (a halo of 26 rows, wider than a slab of 4 ranks) against a wall. */
static const char jelly52[] = "world\n  gravity 0 -9.81 0\nend\n"
                              "walls\n  min -1 -1 -1\n  max 1 2 1\n  loss 0.3\nend\n"
                              "body jelly\n  nx 12\n  ny 12\n  nz 12\n  spacing 0.05\n  origin -1.01 0.5 -0.2\n"
                              "  mass 0.01\n  neighbours 52\n  springs K1 k 500\n  springs K2 k 250\n"
                              "  springs K3 k 150\n  springs Kb1 k 200\n  springs Kb2 k 100\n  springs Kb3 k 60\nend\n"
                              "run\n  integrator jelly\n  dt 5e-4\n  jelly_alpha 0.9995\nend\n";

/* Two pressure balls, each computed whole by one rank, beside a cloth in slabs. */
static const char pressure[] = "world\n  gravity 0 -9.81 0\nend\n"
                               "ground\n  model spring\n  height 0\n  stiffness 20000\nend\n"
                               "body icosphere\n  radius 0.2\n  level 3\n  center 0 0.25 0\n  mass 0.005\n  nrt 300\n"
                               "  pump_rate 0.01\n  springs edges k 400 damping 0.5\nend\n"
                               "body icosphere\n  radius 0.2\n  level 3\n  center 1 0.6 0\n  mass 0.005\n  nrt 200\n"
                               "  pump_rate 0.02\n  springs edges k 400 damping 0.5\nend\n"
                               "body cloth\n  nx 64\n  ny 64\n  spacing 0.012\n  origin 2 1 0\n  u 1 0 0\n  v 0 0 1\n"
                               "  mass 2e-4\n  pins two_corners\n  springs structural k 200 damping 0.02\n"
                               "  springs shear k 50 damping 0.02\n  springs bend k 20 damping 0.02\nend\n"
                               "run\n  integrator semi_implicit_euler\n  dt 1e-3\n  dt_max 2e-4\nend\n";

/* A curtain whose springs break across the slabs' edges. */
static const char tearing[] = "world\n  gravity 0 -9.81 0\nend\n"
                              "body cloth\n  nx 80\n  ny 60\n  spacing 0.02\n  origin 0 1 0\n  u 1 0 0\n  v 0 -1 0\n"
                              "  mass 0.01\n  pins edge\n"
                              "  springs structural k 200 damping 0.05 behaviour breakable break_ratio 1.02\n"
                              "  springs shear k 100 damping 0.05 behaviour breakable break_ratio 1.02\n"
                              "  springs bend k 50 damping 0.05 behaviour breakable break_ratio 1.02\nend\n"
                              "run\n  integrator semi_implicit_euler\n  dt 1e-3\nend\n";

/* A stiff cloth, stepped implicitly: units of 32 rows for the slabs (hk_part_unit_rows), 32 + 32 + 11, whose last
 * aggregate row is half a row (multigrid). */
static const char stiff_cloth[] = "world\n  gravity 0 -9.81 0\n  air_drag 1e-5\nend\n"
                                  "body cloth\n  nx 72\n  ny 75\n  spacing 0.01\n  origin 0 1 0\n  u 1 0 0\n"
                                  "  v 0 0 1\n  mass 1e-4\n  pins two_corners\n"
                                  "  springs structural k 20000 damping 0.05 damping_model relative\n"
                                  "  springs shear k 20000 damping 0.05 damping_model relative\n"
                                  "  springs bend k 20000 damping 0.05 damping_model relative\nend\n"
                                  "body rope\n  count 40\n  spacing 0.01\n  origin 2 1 0\n  direction 1 0 0\n"
                                  "  mass 1e-3\n  anchor 1\n  springs chain k 5000 damping 0.1\nend\n"
                                  "run\n  integrator implicit_euler\n  dt 0.00416666666666667\nend\n";

/* A jelly of 16 x 16 x 32 nodes, 4 units of 8 planes, stepped implicitly onto the ground. */
static const char stiff_jelly[] = "world\n  gravity 0 -9.81 0\nend\n"
                                  "ground\n  model spring\n  height 0\n  stiffness 20000\nend\n"
                                  "body jelly\n  nx 16\n  ny 16\n  nz 32\n  spacing 0.02\n  origin 0 0.05 0\n"
                                  "  mass 0.001\n  neighbours 26\n  springs K1 k 2000\n  springs K2 k 1000\n"
                                  "  springs K3 k 600\nend\n"
                                  "run\n  integrator implicit_euler\n  dt 0.002\nend\n";

/* Two small cloths, each computed whole by one rank, with the multigrid on each (1600 nodes): the first coarse level
 * of a body another rank computes comes from that rank. */
static const char two_cloths[] = "world\n  gravity 0 -9.81 0\nend\n"
                                 "body cloth\n  nx 40\n  ny 40\n  spacing 0.01\n  origin 0 1 0\n  u 1 0 0\n"
                                 "  v 0 0 1\n  mass 1e-4\n  pins two_corners\n"
                                 "  springs structural k 20000 damping 0.05 damping_model relative\n"
                                 "  springs bend k 20000 damping 0.05 damping_model relative\nend\n"
                                 "body cloth\n  nx 40\n  ny 40\n  spacing 0.01\n  origin 1 1 0\n  u 1 0 0\n"
                                 "  v 0 0 1\n  mass 2e-4\n  pins two_corners\n"
                                 "  springs structural k 30000 damping 0.05 damping_model relative\n"
                                 "  springs shear k 10000 damping 0.05 damping_model relative\nend\n"
                                 "run\n  integrator implicit_euler\n  dt 0.00416666666666667\nend\n";

/* A rope of 40000 nodes, one row: split into ranges of nodes (whole vectors), each rank's range in windows over its
 * threads; sunk into the ground deeper along its length so that every spring pulls, its springs breaking past
 * 1.0005 L0. */
static const char long_rope[] = "world\n  gravity 0 -9.81 0\nend\n"
                                "ground\n  model spring\n  height -0.05\n  stiffness 50\nend\n"
                                "body rope\n  count 40000\n  mass 0.001\n  spacing 0.001\n  origin 0 -0.051 0\n"
                                "  direction 1 -0.0001 0\n  topology skip_one\n  anchor 1\n"
                                "  springs chain k 200 damping 0.02 behaviour breakable break_ratio 1.0005\n"
                                "  springs skip k 50 damping 0.02\nend\n"
                                "run\n  integrator semi_implicit_euler\n  dt 1e-4\nend\n";

/* A cloth in slabs lying on a table (the shipped mesh collider, its top lowered to y = 0.5), half of it over the
 * edge and onto a box on the floor, a capsule turning on it: every rank's particles meet the colliders alone. */
#define COLLIDERS_CLOTH(k, integrator, dt)                                                                             \
    "world\n  gravity 0 -9.81 0\nend\n"                                                                                \
    "collider\n  shape mesh\n  file " HOOKE_SCENES_DIR "/table.obj\n  offset 0 -0.25 0\n  thickness 0.004\n"           \
    "  stiffness 200\n  damping_ratio 1\n  friction 0.4\nend\n"                                                        \
    "collider\n  shape box\n  size 0.3 0.2 0.8\n  offset 0.9 0.1 0\n  thickness 0.004\n  stiffness 200\nend\n"         \
    "collider\n  shape capsule\n  radius 0.05\n  length 0.6\n  offset 0.35 0.554 0\n  rotation 1.5707963267948966 0 "  \
    "0\n"                                                                                                              \
    "  angular_velocity 0 0 4\n  thickness 0.004\n  stiffness 200\n  friction 0.8\nend\n"                              \
    "body cloth\n  nx 72\n  ny 72\n  spacing 0.012\n  origin 0.2 0.503 -0.43\n  u 1 0 0\n  v 0 0 1\n  mass 2e-4\n"     \
    "  springs structural k " k " damping 0.02 damping_model relative\n"                                               \
    "  springs shear k " k " damping 0.02 damping_model relative\n"                                                    \
    "  springs bend k " k " damping 0.02 damping_model relative\nend\n"                                                \
    "run\n  integrator " integrator "\n  dt " dt "\nend\n"

static void cloth_slabs(void **state)
{
    (void)state;
    same_bits(cloth, NULL, 60);
}

static void cloth_rk4_and_velocity_verlet(void **state)
{
    (void)state;
    same_bits(cloth, "rk4", 20);
    same_bits(cloth, "velocity_verlet", 20);
}

static void jelly52_wide_halo(void **state)
{
    (void)state;
    same_bits(jelly52, NULL, 60);
}

static void pressure_bodies_whole(void **state)
{
    (void)state;
    same_bits(pressure, NULL, 20);
}

static void tearing_across_slabs(void **state)
{
    (void)state;
    same_bits(tearing, NULL, 80);
}

/* Body 0 of the scene is split into slabs on every rank count, on whole units of rows (hk_part_unit_rows). */
static void assert_split_on_units(const char *text)
{
    for (int R = 2; R <= MAX_RANKS; R++) {
        hk_world *w = load(text, NULL);
        assert_int_equal(hk_world_distribute(w, 0, R, &fake_ops, NULL), 0);
        const hk_part_body *pb = &w->part->body[0];
        const hk_body *b = &w->bodies[0];
        const int rows = b->ny * (b->nz > 1 ? b->nz : 1), u = hk_part_unit_rows(b);
        assert_true(pb->owner < 0);
        assert_true(pb->rows[1] > 0 && pb->rows[1] < rows); /* two ranks at least have rows */
        for (int r = 0; r <= R; r++) assert_true(pb->rows[r] % u == 0 || pb->rows[r] == rows);
        hk_world_destroy(w);
    }
}

static void rope_in_node_ranges(void **state)
{
    (void)state;
    for (int R = 2; R <= MAX_RANKS; R++) { /* split on every rank count, on whole vectors */
        hk_world *w = load(long_rope, NULL);
        assert_int_equal(hk_world_distribute(w, 0, R, &fake_ops, NULL), 0);
        const hk_part_body *pb = &w->part->body[0];
        assert_true(pb->owner < 0 && pb->nodes);
        for (int r = 1; r < R; r++) assert_true(pb->rows[r] > pb->rows[r - 1] && pb->rows[r] % 16 == 0);
        assert_int_equal(pb->rows[R], 40000);
        hk_world_destroy(w);
    }
    same_bits(long_rope, NULL, 80);
    same_bits(long_rope, "rk4", 20);
}

static void implicit_cloth_and_rope(void **state)
{
    (void)state;
    assert_int_equal(hk_part_unit_rows(&(hk_body){.count = 72 * 72, .total = 72 * 72, .nx = 72, .ny = 72, .nz = 1}),
                     32);
    assert_split_on_units(stiff_cloth);
    same_bits(stiff_cloth, NULL, 8);
    same_bits(stiff_cloth, "trapezoidal", 4);
}

static void implicit_bodies_whole(void **state)
{
    (void)state;
    hk_world *w = load(two_cloths, NULL);
    assert_int_equal(hk_world_distribute(w, 0, 2, &fake_ops, NULL), 0);
    assert_true(w->part->body[0].owner >= 0 && w->part->body[1].owner >= 0); /* whole, */
    assert_true(w->part->body[0].owner != w->part->body[1].owner);           /* by two ranks */
    hk_world_destroy(w);
    same_bits(two_cloths, NULL, 6);
}

static void implicit_jelly_planes(void **state)
{
    (void)state;
    assert_int_equal(
        hk_part_unit_rows(&(hk_body){.count = 16 * 16 * 32, .total = 16 * 16 * 32, .nx = 16, .ny = 16, .nz = 32}),
        8 * 16);
    assert_split_on_units(stiff_jelly);
    same_bits(stiff_jelly, NULL, 6);
}

static void colliders_per_particle(void **state)
{
    (void)state;
    same_bits(COLLIDERS_CLOTH("200", "semi_implicit_euler", "2.5e-4"), NULL, 60);
    same_bits(COLLIDERS_CLOTH("200", "semi_implicit_euler", "2.5e-4"), "verlet", 30);
    same_bits(COLLIDERS_CLOTH("20000", "implicit_euler", "0.00416666666666667"), NULL, 4);
}

/* Contact between bodies and within one (pairs.h): the bodies that take part are computed whole by rank 0, which
 * alone finds, sums and sweeps their pairs; the others are shared out as before. A cloth lands on a jelly cube
 * (semi-implicit Euler; implicit Euler, the pairs' blocks in the solve) beside a cloth that takes part too (all on
 * rank 0); with self collision only, beside a rope, which has no surface and takes no part: split into ranges of
 * nodes over the ranks. */
#define PAIRS_SCENE(contact, integrator, dt, extra)                                                                    \
    "world\n  gravity 0 -9.81 0\nend\n"                                                                                \
    "body jelly\n  nx 4\n  ny 4\n  nz 4\n  spacing 0.05\n  origin -0.075 0.005 -0.075\n  mass 0.01\n"                  \
    "  springs all k 3000 damping 0.3\nend\n"                                                                          \
    "body cloth\n  nx 12\n  ny 12\n  spacing 0.02\n  origin -0.11 0.19 -0.11\n  u 1 0 0\n  v 0 0 1\n  mass 1e-3\n"     \
    "  springs structural k 300 damping 0.01 damping_model relative\n"                                                 \
    "  springs shear k 300 damping 0.01 damping_model relative\nend\n" extra                                           \
    "collider\n  shape box\n  size 2 0.2 2\n  offset 0 -0.1 0\n  thickness 0.005\n  stiffness 500\n"                   \
    "  damping_ratio 1\n  friction 0.5\nend\n" contact "run\n  integrator " integrator "\n  dt " dt "\nend\n"
#define PAIRS_CONTACT "contact\n  thickness 0.005\n  stiffness 300\n  damping_ratio 1\n  friction 0.5\nend\n"
/* the particle model: spheres of half the smallest spacing (the second cloth's 1.2 cm) */
#define PAIRS_PARTICLES                                                                                                \
    "contact\n  model particles\n  radius 0.006\n  stiffness 300\n  damping_ratio 1\n  friction 0.5\nend\n"
#define PAIRS_CLOTH                                                                                                    \
    "body cloth\n  nx 64\n  ny 64\n  spacing 0.012\n  origin 2 1 0\n  u 1 0 0\n  v 0 0 1\n  mass 2e-4\n"               \
    "  pins two_corners\n  springs structural k 200 damping 0.02\n  springs shear k 50 damping 0.02\nend\n"
#define PAIRS_ROPE                                                                                                     \
    "body rope\n  count 400\n  spacing 0.01\n  origin 2 1 0\n  direction 1 0 0\n  mass 1e-3\n  anchor 1\n"             \
    "  springs chain k 500 damping 0.1\nend\n"

static void pairs_whole_on_one_rank(void **state)
{
    (void)state;
    same_bits(PAIRS_SCENE(PAIRS_CONTACT, "semi_implicit_euler", "5e-4", PAIRS_CLOTH), NULL, 200);
    same_bits(PAIRS_SCENE(PAIRS_CONTACT, "implicit_euler", "0.00416666666666667", PAIRS_CLOTH), NULL, 30);
    same_bits(PAIRS_SCENE("contact\n  bodies 0\n  thickness 0.005\n  stiffness 300\nend\n", "semi_implicit_euler",
                          "5e-4", PAIRS_ROPE),
              NULL, 200);
    same_bits(PAIRS_SCENE(PAIRS_PARTICLES, "semi_implicit_euler", "5e-4", PAIRS_CLOTH), NULL, 200);
    same_bits(PAIRS_SCENE(PAIRS_PARTICLES, "implicit_euler", "0.00416666666666667", PAIRS_CLOTH), NULL, 30);
}

static void implicit_pressure_and_tearing(void **state)
{
    (void)state;
    same_bits(pressure, "implicit_euler", 6);
    same_bits(tearing, "implicit_euler", 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cloth_slabs),
        cmocka_unit_test(cloth_rk4_and_velocity_verlet),
        cmocka_unit_test(jelly52_wide_halo),
        cmocka_unit_test(pressure_bodies_whole),
        cmocka_unit_test(tearing_across_slabs),
        cmocka_unit_test(rope_in_node_ranges),
        cmocka_unit_test(implicit_cloth_and_rope),
        cmocka_unit_test(implicit_jelly_planes),
        cmocka_unit_test(implicit_bodies_whole),
        cmocka_unit_test(implicit_pressure_and_tearing),
        cmocka_unit_test(colliders_per_particle),
        cmocka_unit_test(pairs_whole_on_one_rank),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
