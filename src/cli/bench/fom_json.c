/* fom_json.c — `hooke bench`'s results as JSON: hooke's own report (--json) and Google Benchmark's shape
 * (--gbench-json). */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE /* environ */
#include "fom_json.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json.h"

int hk_bench_energy_ok(const hk_bench_row *r) { return r->e_end <= r->e_start + 0.1 * r->e_scale + r->e_floor; }

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double hk_bench_median(const double *x, int n)
{
    double *s = malloc((size_t)n * sizeof *s);
    if (!s || n < 1) {
        free(s);
        return 0;
    }
    memcpy(s, x, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    const double m = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    free(s);
    return m;
}

static const char *const binding_names[] = {[HK_BINDING_NONE] = "none",
                                            [HK_BINDING_HOOKE] = "hooke",
                                            [HK_BINDING_USER] = "user",
                                            [HK_BINDING_LAUNCHER] = "launcher"};

/* The environment variables that set OpenMP's behaviour (OMP_*, and GNU libgomp's GOMP_*), in the environment's
 * order: calls f(name, value) for each. */
static void omp_environment(void (*f)(void *arg, const char *name, const char *value), void *arg)
{
    for (char **e = environ; e && *e; e++) {
        const char *eq = strchr(*e, '=');
        if (!eq || (strncmp(*e, "OMP_", 4) != 0 && strncmp(*e, "GOMP_", 5) != 0)) continue;
        char name[128];
        const size_t n = (size_t)(eq - *e) < sizeof name ? (size_t)(eq - *e) : sizeof name - 1;
        memcpy(name, *e, n);
        name[n] = '\0';
        f(arg, name, eq + 1);
    }
}

static void env_member(void *arg, const char *name, const char *value) { hk_json_str(arg, name, value); }

typedef struct env_text {
    char buf[1024];
    size_t len;
} env_text;

static void env_append(void *arg, const char *name, const char *value)
{
    env_text *t = arg;
    if (t->len < sizeof t->buf)
        t->len += (size_t)snprintf(t->buf + t->len, sizeof t->buf - t->len, "%s%s=%s", t->len ? " " : "", name, value);
}

static void write_machine(hk_json *j, const hk_machine *m)
{
    hk_json_object(j, "machine");
    if (m->known) {
        hk_json_str(j, "cpu", m->cpu_model[0] ? m->cpu_model : NULL);
        hk_json_int(j, "packages", m->packages);
        hk_json_int(j, "cores", m->cores);
        hk_json_int(j, "pus", m->pus);
        hk_json_int(j, "numa_nodes", m->numa_nodes);
    } else { /* built without hwloc, or hwloc could not read the machine */
        hk_json_null(j, "cpu");
        hk_json_null(j, "packages");
        hk_json_null(j, "cores");
        hk_json_null(j, "pus");
        hk_json_null(j, "numa_nodes");
    }
    hk_json_int(j, "online_pus", m->online_pus);
    hk_json_array(j, "caches");
    for (int c = 0; c < m->ncaches; c++) {
        const hk_cache_info *k = &m->caches[c];
        hk_json_object_line(j, NULL);
        hk_json_str(j, "name", k->name);
        hk_json_str(j, "type", k->type);
        hk_json_int(j, "level", k->level);
        hk_json_int(j, "size_bytes", (long long)k->bytes);
        hk_json_int(j, "count", k->count);
        hk_json_int(j, "pus_sharing", k->sharing);
        hk_json_close(j);
    }
    hk_json_close(j);
    hk_json_str(j, "cpu_isa", m->cpu_isa);
    hk_json_str(j, "kernels", m->kernels);
    hk_json_str(j, "mask", m->mask[0] ? m->mask : NULL);
    hk_json_int(j, "mask_cores", m->mask_cores);
    if (!m->openmp) {
        hk_json_null(j, "openmp");
    } else {
        hk_json_object(j, "openmp");
        hk_json_int(j, "threads", m->threads);
        hk_json_str(j, "binding", binding_names[m->binding]);
        hk_json_str(j, "binding_from", m->binding == HK_BINDING_USER ? m->binding_var : NULL);
        hk_json_object(j, "env");
        omp_environment(env_member, j);
        hk_json_close(j);
        hk_json_array(j, "placement");
        for (int i = 0; m->thread_cpu && i < m->threads; i++) {
            hk_json_object_line(j, NULL);
            hk_json_int(j, "thread", i);
            hk_json_int(j, "cpu", m->thread_cpu[i]);
            hk_json_str(j, "pus", m->thread_pus[i]);
            hk_json_close(j);
        }
        hk_json_close(j);
        hk_json_close(j);
    }
    hk_json_close(j);
}

static const char *context_value(const hk_bench_report *r, const char *key)
{
    for (int i = 0; i < HK_CONTEXT_ITEMS; i++)
        if (strcmp(r->context[i].key, key) == 0) return r->context[i].value;
    return NULL;
}

int hk_bench_write_json(FILE *f, const hk_bench_report *r)
{
    hk_json j;
    hk_json_begin(&j, f);
    hk_json_object(&j, NULL);
    hk_json_str(&j, "hooke", context_value(r, "hooke_version"));
    hk_json_str(&j, "real", context_value(r, "hooke_precision"));
    hk_json_str(&j, "kernels", context_value(r, "hooke_kernels"));
    hk_json_str(&j, "device", r->device);
    hk_json_str(&j, "date", r->date);
    hk_json_object(&j, "build");
    hk_json_str(&j, "type", context_value(r, "hooke_build_type"));
    hk_json_str(&j, "compiler", context_value(r, "hooke_compiler"));
    hk_json_str(&j, "c_flags", context_value(r, "hooke_c_flags"));
    hk_json_close(&j);
    write_machine(&j, r->machine);
    hk_json_int(&j, "machine_cores", r->machine->mask_cores);
    if (r->ranks > 0) hk_json_int(&j, "mpi_ranks", r->ranks); /* over MPI ranks: threads are per rank */
    hk_json_str(&j, "problem", r->problem);
    hk_json_str(&j, "scene", r->scene);
    hk_json_str(&j, "builtin", r->builtin);
    hk_json_str(&j, "scaling", r->weak ? "weak" : "strong");
    hk_json_int(&j, "warmup_steps", r->warmup);
    hk_json_int(&j, "repeat", r->repeat);
    hk_json_int(&j, "steps_per_repeat", r->steps);
    hk_json_int(&j, "efficiency_base_ranks", r->base_ranks);
    hk_json_int(&j, "efficiency_base_threads", r->base_threads);
    hk_json_str(&j, "energy_bound",
                "E_end <= E_start + 0.1 * (|E_start| + |KE_end| + |PE_end| + |SE_end|) + 1e-3 J/kg * free mass");
    hk_json_array(&j, "results");
    for (int i = 0; i < r->nrows; i++) {
        const hk_bench_row *x = &r->rows[i];
        char hash[24], ref[24];
        snprintf(hash, sizeof hash, "0x%016" PRIx64, x->hash);
        snprintf(ref, sizeof ref, "0x%016" PRIx64, x->ref_hash);
        hk_json_object_line(&j, NULL);
        hk_json_int(&j, "threads", x->threads);
        hk_json_str(&j, "device", x->device);
        hk_json_int(&j, "particles", x->particles);
        hk_json_int(&j, "springs", x->springs);
        hk_json_int(&j, "spring_updates_per_step", x->updates_per_step);
        hk_json_num(&j, "time_per_step_min_s", x->tmin, 9);
        hk_json_num(&j, "time_per_step_median_s", x->tmed, 9);
        hk_json_num(&j, "time_per_step_max_s", x->tmax, 9);
        hk_json_array_line(&j, "time_per_step_s");
        for (int k = 0; k < r->repeat; k++) hk_json_num(&j, NULL, x->times[k], 9);
        hk_json_close(&j);
        hk_json_num(&j, "cpu_time_per_step_median_s", hk_bench_median(x->cpu_times, r->repeat), 9);
        hk_json_num(&j, "fom_spring_updates_per_s", x->fom, 6);
        hk_json_num(&j, "ns_per_spring_update", x->ns_per_update, 6);
        hk_json_num(&j, "efficiency", x->efficiency, 4);
        hk_json_str(&j, "state_hash", hash);
        hk_json_str(&j, "reference_hash", ref);
        hk_json_bool(&j, "hash_ok", x->hash == x->ref_hash);
        hk_json_num(&j, "energy_start_J", x->e_start, 9);
        hk_json_num(&j, "energy_end_J", x->e_end, 9);
        hk_json_bool(&j, "energy_ok", hk_bench_energy_ok(x));
        hk_json_num(&j, "sim_seconds_per_wall_second", x->sim_per_wall, 6);
        hk_json_num(&j, "cg_iterations_per_step", x->cg_per_step, 6);
        hk_json_num(&j, "jacobian_products_per_s", x->jacobian_per_s, 6);
        if (x->contact) {
            hk_json_num(&j, "contact_broad_per_step_s", x->contact_phase[0], 9);
            hk_json_num(&j, "contact_forces_per_step_s", x->contact_phase[1], 9);
            hk_json_num(&j, "contact_safety_per_step_s", x->contact_phase[2], 9);
        }
        hk_json_bool(&j, "blew_up", x->blew_up);
        hk_json_str(&j, "blowup", x->blew_up ? x->blowup : NULL);
        if (r->ranks > 0) {
            hk_json_int(&j, "ranks", x->ranks);
            hk_json_num(&j, "halo_exchange_per_step_s", x->halo, 9);
        }
        hk_json_num(&j, "rss_per_rank_bytes", x->rss, 12);
        hk_json_num(&j, "peak_rss_per_rank_bytes", x->peak_rss, 12);
        if (x->run_delay >= 0) {
            hk_json_num(&j, "run_delay_per_step_s", x->run_delay, 9);
            hk_json_num(&j, "run_delay_share", x->run_delay_share, 6);
        } else {
            hk_json_null(&j, "run_delay_per_step_s");
            hk_json_null(&j, "run_delay_share");
        }
        hk_json_array_line(&j, "particles_held_per_rank");
        for (int k = 0; x->held && k < x->ranks; k++) hk_json_int(&j, NULL, x->held[k]);
        hk_json_close(&j);
        hk_json_close(&j);
    }
    hk_json_close(&j);
    hk_json_str(&j, "verification", r->valid ? "VALID" : "INVALID");
    hk_json_num(&j, "fom_spring_updates_per_s", r->fom, 6);
    hk_json_array_line(&j, "peak_rss_lifetime_per_rank_bytes");
    for (int k = 0; k < r->nlifetime_peak; k++) hk_json_num(&j, NULL, r->lifetime_peak[k], 12);
    hk_json_close(&j);
    hk_json_close(&j);
    return hk_json_end(&j);
}

/* ---- Google Benchmark's shape -------------------------------------------- */

/* The name of a row's entries: PROBLEM/SCALING/threads:N, over MPI ranks PROBLEM/SCALING/ranks:R/threads:N. */
static void gbench_name(const hk_bench_report *r, const hk_bench_row *x, char *buf, size_t len)
{
    char ranks[32] = "";
    if (r->ranks > 0) snprintf(ranks, sizeof ranks, "ranks:%d/", x->ranks);
    if (r->scene)
        snprintf(buf, len, "%s/%s/%sthreads:%d", r->scene, r->weak ? "weak" : "strong", ranks, x->threads);
    else
        snprintf(buf, len, "%s/n:%d/%s/%sthreads:%d", r->builtin, r->size, r->weak ? "weak" : "strong", ranks,
                 x->threads);
}

/* One entry: a repetition (aggregate NULL) or the median of them ("median"). */
static void gbench_entry(hk_json *j, const hk_bench_report *r, int row, int rep, const char *aggregate, double t,
                         double cpu)
{
    const hk_bench_row *x = &r->rows[row];
    char name[4200], run[4096];
    gbench_name(r, x, run, sizeof run);
    snprintf(name, sizeof name, "%s%s%s", run, aggregate ? "_" : "", aggregate ? aggregate : "");
    hk_json_object(j, NULL);
    hk_json_str(j, "name", name);
    hk_json_int(j, "family_index", 0);
    hk_json_int(j, "per_family_instance_index", row);
    hk_json_str(j, "run_name", run);
    hk_json_str(j, "run_type", aggregate ? "aggregate" : "iteration");
    hk_json_int(j, "repetitions", r->repeat);
    if (!aggregate) hk_json_int(j, "repetition_index", rep);
    hk_json_int(j, "threads", 1); /* Google Benchmark's: threads running the timed loop; OpenMP's are omp_threads */
    if (aggregate) {
        hk_json_str(j, "aggregate_name", aggregate);
        hk_json_str(j, "aggregate_unit", "time");
    }
    hk_json_int(j, "iterations", r->steps);
    hk_json_num(j, "real_time", 1e9 * t, 9);
    hk_json_num(j, "cpu_time", 1e9 * cpu, 9);
    hk_json_str(j, "time_unit", "ns");
    hk_json_int(j, "omp_threads", x->threads);
    if (r->ranks > 0) {
        hk_json_int(j, "mpi_ranks", x->ranks);
        hk_json_num(j, "halo_exchange_ns_per_step", 1e9 * x->halo, 9);
    }
    hk_json_num(j, "rss_per_rank_bytes", x->rss, 12);
    hk_json_num(j, "peak_rss_per_rank_bytes", x->peak_rss, 12);
    if (x->run_delay >= 0) hk_json_num(j, "run_delay_ns_per_step", 1e9 * x->run_delay, 9);
    hk_json_int(j, "particles", x->particles);
    hk_json_int(j, "springs", x->springs);
    hk_json_int(j, "spring_updates_per_step", x->updates_per_step);
    hk_json_num(j, "items_per_second", (double)x->updates_per_step / t, 9);
    hk_json_num(j, "ns_per_spring_update", 1e9 * t / (double)x->updates_per_step, 9);
    hk_json_close(j);
}

int hk_bench_write_gbench(FILE *f, const hk_bench_report *r)
{
    const hk_machine *m = r->machine;
    hk_json j;
    hk_json_begin(&j, f);
    hk_json_object(&j, NULL);
    hk_json_object(&j, "context");
    hk_json_str(&j, "date", r->date);
    char host[256] = "";
    if (gethostname(host, sizeof host) == 0) host[sizeof host - 1] = '\0';
    hk_json_str(&j, "host_name", host);
    hk_json_str(&j, "executable", "hooke bench");
    hk_json_int(&j, "num_cpus", m->online_pus);
    hk_json_array(&j, "caches");
    for (int c = 0; c < m->ncaches; c++) {
        hk_json_object_line(&j, NULL);
        hk_json_str(&j, "type", m->caches[c].type);
        hk_json_int(&j, "level", m->caches[c].level);
        hk_json_int(&j, "size", (long long)m->caches[c].bytes);
        hk_json_int(&j, "num_sharing", m->caches[c].sharing);
        hk_json_close(&j);
    }
    hk_json_close(&j);
    for (int i = 0; i < HK_CONTEXT_ITEMS; i++) hk_json_str(&j, r->context[i].key, r->context[i].value);
    char text[256];
    if (m->known) {
        snprintf(text, sizeof text, "%d package(s), %d core(s), %d PU(s), %d NUMA node(s)", m->packages, m->cores,
                 m->pus, m->numa_nodes);
        hk_json_str(&j, "hooke_cpu", m->cpu_model);
        hk_json_str(&j, "hooke_topology", text);
    }
    hk_json_str(&j, "hooke_cpu_isa", m->cpu_isa);
    hk_json_str(&j, "hooke_mask", m->mask);
    hk_json_str(&j, "hooke_binding", m->openmp ? binding_names[m->binding] : "none");
    env_text env = {.len = 0};
    env.buf[0] = '\0';
    omp_environment(env_append, &env);
    hk_json_str(&j, "hooke_omp_env", env.buf);
    hk_json_str(&j, "hooke_device", r->device);
    hk_json_str(&j, "hooke_problem", r->problem);
    hk_json_str(&j, "hooke_scaling", r->weak ? "weak" : "strong");
    snprintf(text, sizeof text, "%d", r->warmup);
    hk_json_str(&j, "hooke_warmup_steps", text);
    hk_json_str(&j, "hooke_verification", r->valid ? "VALID" : "INVALID");
    hk_json_close(&j);
    hk_json_array(&j, "benchmarks");
    for (int i = 0; i < r->nrows; i++) {
        const hk_bench_row *x = &r->rows[i];
        for (int k = 0; k < r->repeat; k++) gbench_entry(&j, r, i, k, NULL, x->times[k], x->cpu_times[k]);
        if (r->repeat > 1) gbench_entry(&j, r, i, 0, "median", x->tmed, hk_bench_median(x->cpu_times, r->repeat));
    }
    hk_json_close(&j);
    hk_json_close(&j);
    return hk_json_end(&j);
}
