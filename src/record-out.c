/* SPDX-License-Identifier: MIT */
/*
 * record-out.c — `pmukit record`'s output: the file (perf's FILE.old backup)
 * or pipe, the writer with the attrs and groups, the side-band perf
 * synthesizes first (the kernel's map, the tasks recorded, the workload's
 * perf-exec COMM), the records' sink, and the --switch-output rotation that
 * finishes one file and starts the next (record-switch.c names them).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pmukit/data_write.h>
#include <pmukit/record.h>

#include "record.h"

#define PROG "pmukit record"

int record_out_sink(void *ctx, const void *recs, size_t len)
{
	struct rec_out *o = ctx;
	int r = pk_data_writer__write(o->w, recs, len, &o->err);
	if (r) {
		o->failed = true;
		return r;
	}
	if (o->stats && pk_record_stats__feed(o->stats, recs, len))
		return -ENOMEM;
	return 0;
}

int record_out_add_dso(void *ctx, int32_t pid, uint16_t misc, const char *filename)
{
	return pk_data_writer__add_dso(ctx, pid, misc, filename);
}

/* perf's backup: an existing non-empty FILE becomes FILE.old. Then open FILE. */
int record_out_open(const char *path)
{
	struct stat st;
	if (!stat(path, &st) && S_ISREG(st.st_mode) && st.st_size) {
		size_t n = strlen(path) + 5;
		char *old = malloc(n);
		if (!old)
			return -1;
		snprintf(old, n, "%s.old", path);
		if (rename(path, old)) {
			fprintf(stderr, PROG ": cannot rename %s to %s: %s\n", path, old, strerror(errno));
			free(old);
			return -1;
		}
		free(old);
	}
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		fprintf(stderr, PROG ": cannot open %s: %s\n", path, strerror(errno));
	return fd;
}

int record_out_writer(struct rec_out *o, struct pk_record *r, const struct rec_cfg *cfg, int argc,
			char **argv)
{
	const char **av = calloc((size_t)argc + 2, sizeof(*av));
	if (!av)
		return -1;
	av[0] = "pmukit";
	for (int i = 0; i < argc; i++)
		av[i + 1] = argv[i];
	struct pk_data_writer_opts wo = { .sz = sizeof(wo), .pipe = !o->path,
					  .compress_level = cfg->compress, .argc = argc + 1,
					  .argv = av };
	int rc = pk_data_writer__new(&o->w, o->fd, &wo, &o->err);
	free(av);
	if (rc)
		goto fail;
	for (size_t i = 0; i < pk_record__nr_events(r); i++) {
		struct pk_record_event ev;
		pk_record__event(r, i, &ev);
		if (pk_data_writer__add_attr(o->w, ev.attr, ev.name, ev.ids, ev.nr_ids, &o->err))
			goto fail;
	}
	for (size_t i = 0; i < pk_record__nr_events(r); i++) {
		struct pk_record_event ev;
		pk_record__event(r, i, &ev);
		if (ev.leader == i && ev.nr_members > 1 &&
		    pk_data_writer__add_group(o->w, i, ev.nr_members, NULL, &o->err))
			goto fail;
	}
	if (pk_data_writer__begin(o->w, &o->err))
		goto fail;
	return 0;
fail:;
	char buf[1024];
	fprintf(stderr, PROG ": %s: %s\n", o->path ? o->path : "stdout",
		pk_error__format(&o->err, buf, sizeof(buf)));
	return -1;
}

/* The side-band of what ran before: the kernel's map, and the tasks being recorded. */
int record_out_synthesize(struct rec_out *o, struct pk_record *r, const struct rec_cfg *cfg,
		      const pid_t *tids, size_t nr_tids)
{
	struct pk_record_event ev;
	pk_record__event(r, 0, &ev);
	size_t idsz = ev.attr->sample_id_all ? pk_sample__id_size(ev.attr->sample_type) : 0;
	struct pk_error err = { 0 };
	int rc = pk_synth__kernel_mmap(NULL, idsz, record_out_sink, o, &err);
	if (rc == -EPERM) {
		if (!cfg->quiet)
			fprintf(stderr, PROG ": warning: %s\n", err.msg);
		rc = 0;
	}
	if (rc)
		return rc;
	if (cfg->spec.system_wide) {
		rc = pk_synth__tasks(NULL, NULL, 0, cfg->spec.sample_addr, idsz, record_out_sink, o, &err);
	} else if (nr_tids) {
		/* the processes of the threads: their maps and every thread */
		pid_t *pids = malloc(nr_tids * sizeof(*pids));
		size_t n = 0;
		if (!pids)
			return -ENOMEM;
		for (size_t i = 0; i < nr_tids; i++) {
			char path[64], buf[256];
			pid_t tgid = tids[i];
			snprintf(path, sizeof(path), "/proc/%d/status", (int)tids[i]);
			FILE *f = fopen(path, "re");
			while (f && fgets(buf, sizeof(buf), f))
				if (!strncmp(buf, "Tgid:", 5)) {
					tgid = (pid_t)atoi(buf + 5);
					break;
				}
			if (f)
				fclose(f);
			bool seen = false;
			for (size_t k = 0; k < n && !seen; k++)
				seen = pids[k] == tgid;
			if (!seen)
				pids[n++] = tgid;
		}
		rc = pk_synth__tasks(NULL, pids, n, cfg->spec.sample_addr, idsz, record_out_sink, o, &err);
		free(pids);
	}
	return rc;
}

size_t record_out_id_size(const struct pk_record *r)
{
	struct pk_record_event ev;
	pk_record__event(r, 0, &ev);
	return ev.attr->sample_id_all ? pk_sample__id_size(ev.attr->sample_type) : 0;
}

int record_out_comm(struct rec_out *o, struct pk_record *r, pid_t pid)
{
	return pk_synth__comm(pid, "perf-exec", record_out_id_size(r), record_out_sink, o, &o->err);
}

/*
 * --switch-output: finish the file (its DSOs' build-ids, the features),
 * rename it FILE.<timestamp>; unless at the end, start FILE again with the
 * attrs and the side-band perf synthesizes for each new file.
 */
int record_out_switch(struct rec_out *o, struct pk_record *r, struct rec_cfg *cfg,
			 const pid_t *tids, size_t nr_tids, pid_t wl_pid, int argc, char **argv,
			 bool at_exit)
{
	pk_record_stats__for_each_dso(o->stats, record_out_add_dso, o->w);
	if (pk_data_writer__finish(o->w, &o->err))
		return -1;
	pk_data_writer__free(o->w);
	o->w = NULL;
	close(o->fd);
	o->fd = -1;
	if (record_switch_rename(&cfg->sw, o->path, cfg->quiet) || at_exit)
		return at_exit ? 0 : -1;
	pk_record_stats__free(o->stats);
	o->stats = NULL;
	if ((o->fd = record_out_open(o->path)) < 0 || pk_record_stats__new(&o->stats, r, 0) ||
	    record_out_writer(o, r, cfg, argc, argv) || record_out_synthesize(o, r, cfg, tids, nr_tids))
		return -1;
	if (wl_pid > 0 && !cfg->spec.system_wide && !cfg->spec.task_target &&
	    pk_synth__tasks(NULL, &wl_pid, 1, cfg->spec.sample_addr, record_out_id_size(r), record_out_sink, o,
			    &o->err))
		return -1;
	if (cfg->sw.time)
		alarm(cfg->sw.time);
	return pk_data_writer__gather(o->w, &o->err) ? -1 : 0;
}

