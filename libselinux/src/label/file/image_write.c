/* label/file/image_write.c: a file_contexts' index image written, for
 * sefcontext_compile (which links the static archive): the files opened
 * and indexed while they stay as they are, the image (assembled by
 * index/image_write.c) renamed into place. */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fc.h"
#include "file.h"
#include "../index/image.h"

static void stat_inputs(const char *base, struct fc_img_input *in)
{
	for (int r = 0; r < FC_IN_NROLES; r++) {
		char path[PATH_MAX];
		struct stat st;

		snprintf(path, sizeof(path), "%s%s", base,
			 fc_img_role_suffix[r]);
		fc_img_input_of(stat(path, &st) == 0 ? &st : NULL, &in[r]);
	}
}

/* Wait until a write now would give a file a ctime after every ctime of
 * in[] (the file system's clock ticks coarsely; one that keeps whole
 * seconds shows as nanoseconds 0). */
static void wait_past(const struct fc_img_input *in)
{
	struct timespec last = {0, 0};

	for (int r = 0; r < FC_IN_NROLES; r++) {
		struct timespec c = {in[r].ctime_sec, in[r].ctime_nsec};

		if (!in[r].present)
			continue;
		if (!c.tv_nsec)
			c.tv_sec++;
		if (c.tv_sec > last.tv_sec ||
		    (c.tv_sec == last.tv_sec && c.tv_nsec > last.tv_nsec))
			last = c;
	}
	for (int i = 0; i < 300; i++) {
		struct timespec now, nap = {0, 5 * 1000 * 1000};

		clock_gettime(CLOCK_REALTIME_COARSE, &now);
		if (now.tv_sec > last.tv_sec ||
		    (now.tv_sec == last.tv_sec && now.tv_nsec > last.tv_nsec))
			return;
		nanosleep(&nap, NULL);
	}
}

/* The digests of the files of in[] that are there (content.c), each
 * still the file in[] names. */
static int sum_inputs(const char *base, struct fc_img_input *in)
{
	for (int r = 0; r < FC_IN_NROLES; r++) {
		char path[PATH_MAX];
		struct stat st;
		int fd, e;

		if (!in[r].present)
			continue;
		snprintf(path, sizeof(path), "%s%s", base,
			 fc_img_role_suffix[r]);
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
		if (fd < 0)
			return -errno;
		if (fstat(fd, &st) < 0 || (uint64_t)st.st_ino != in[r].ino ||
		    (uint64_t)st.st_dev != in[r].dev)
			e = -ESTALE;
		else
			e = fc_content_sum_fd(fd, in[r].sum);
		close(fd);
		if (e < 0)
			return e;
	}
	return 0;
}

/* The SHA-1 of the files, read again now, in order. */
static int rehash(char **files, size_t n, uint8_t out[LBL_SHA1_LEN])
{
	struct lbl_sha1 sha;

	lbl_sha1_init(&sha);
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *buf = NULL;
		struct stat st;
		size_t len;
		int r = lbl_read_file(files[i], &buf, &len, &st);

		if (r < 0)
			return r;
		lbl_sha1_update(&sha, buf, len);
	}
	lbl_sha1_final(&sha, out);
	return 0;
}

static unsigned int logged;
static char first_msg[256];

static int count_log(int type, const char *fmt, ...)
{
	va_list ap;

	(void)type;
	if (!logged++) {
		va_start(ap, fmt);
		vsnprintf(first_msg, sizeof(first_msg), fmt, ap);
		va_end(ap);
	}
	return 0;
}

/* One try: 0 and the image in *img (*len bytes), 1 when the files
 * changed meanwhile, or -errno. */
static int try_once(const char *base, uint8_t **img, size_t *len,
		    const char **why)
{
	struct selinux_opt opts[] = {{SELABEL_OPT_PATH, base},
				     {SELABEL_OPT_DIGEST, (char *)1}};
	struct fc_img_input in1[FC_IN_NROLES], in2[FC_IN_NROLES];
	union selinux_callback old = selinux_get_callback(SELINUX_CB_LOG);
	union selinux_callback cb = {.func_log = count_log};
	uint32_t roles[FC_IN_NROLES];
	struct selabel_handle *h;
	struct fc_data *d;
	unsigned char *dg;
	uint8_t again[LBL_SHA1_LEN];
	char **files;
	size_t dlen, nfiles;
	int r;

	stat_inputs(base, in1);
	logged = 0;
	selinux_set_callback(SELINUX_CB_LOG, cb);
	fc_image_disabled = true;
	h = selabel_open(SELABEL_CTX_FILE, opts, 2);
	r = h ? 0 : -errno;
	fc_image_disabled = false;
	selinux_set_callback(SELINUX_CB_LOG, old);
	if (r < 0) {
		*why = "the files do not open";
		return r;
	}
	if (logged) {
		*why = first_msg;
		r = -EPROTO;
		goto out;
	}
	d = h->data;
	if (!d->nspec) {
		*why = "no specification";
		r = -ENODATA;
		goto out;
	}
	r = fc_index_build_all(d);
	if (r < 0 || selabel_digest(h, &dg, &dlen, &files, &nfiles) < 0 ||
	    nfiles > FC_IN_NROLES) {
		*why = "indexing failed";
		r = r < 0 ? r : -EINVAL;
		goto out;
	}
	for (size_t i = 0; i < nfiles; i++) {
		int k;

		for (k = 0; k < FC_IN_NROLES; k++) {
			size_t bl = strlen(base);

			if (!strncmp(files[i], base, bl) &&
			    !strcmp(files[i] + bl, fc_img_role_suffix[k]))
				break;
		}
		if (k == FC_IN_NROLES) {
			*why = "a file read is not one of the base's";
			r = -EINVAL;
			goto out;
		}
		roles[i] = k;
	}
	/* The files as indexed are the files as they stay: read again once
	 * the clock has passed their ctimes (a change from then on gives a
	 * new one), their digests taken then, and unchanged meanwhile. */
	wait_past(in1);
	stat_inputs(base, in2);
	if (memcmp(in1, in2, sizeof(in1)) || rehash(files, nfiles, again) < 0 ||
	    memcmp(again, dg, dlen) || sum_inputs(base, in1) < 0) {
		r = 1;
		goto out;
	}
	stat_inputs(base, in2);
	for (int k = 0; k < FC_IN_NROLES; k++)
		memcpy(in2[k].sum, in1[k].sum, sizeof(in2[k].sum));
	if (memcmp(in1, in2, sizeof(in1))) {
		r = 1;
		goto out;
	}
	r = fc_image_assemble(d, roles, (uint32_t)nfiles, in1, dg, img, len);
	if (r < 0)
		*why = "out of memory";
out:
	selabel_close(h);
	return r;
}

int lbl_fc_index_image(const char *base, uint8_t **img, size_t *len,
		       const char **why)
{
	int r = 1;

	*why = NULL;
	for (int i = 0; i < 5 && r == 1; i++)
		r = try_once(base, img, len, why);
	if (r == 1) {
		*why = "the files kept changing";
		r = -EAGAIN;
	}
	return r;
}

int lbl_fc_put_index(const char *path, const uint8_t *img, size_t len)
{
	_cleanup_free_ char *tmp = NULL;
	const char *what;
	int r, fd;

	if (asprintf(&tmp, "%sXXXXXX", path) < 0)
		return -ENOMEM;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = fc_write_all(fd, img, len);
	if (r >= 0 && fchmod(fd, 0644) < 0)
		r = -errno;
	if (r >= 0)
		r = lbl_fc_install(fd, tmp, path, &what);
	if (close(fd) < 0 && r >= 0)
		r = -errno;
	if (r < 0)
		unlink(tmp);
	return r;
}

int lbl_fc_write_index(const char *base, const char *out, const char **why)
{
	_cleanup_free_ char *path = NULL;
	uint8_t *img = NULL;
	size_t len = 0;
	int r;

	*why = NULL;
	if (out ? !(path = strdup(out))
		: asprintf(&path, "%s%s", base, FC_IMG_SUFFIX) < 0)
		return -ENOMEM;
	r = lbl_fc_index_image(base, &img, &len, why);
	if (r < 0) {
		/* a stale image would be ignored, but say it with no file */
		unlink(path);
		return r;
	}
	r = lbl_fc_put_index(path, img, len);
	free(img);
	*why = r < 0 ? "cannot write" : NULL;
	return r;
}

int lbl_fc_restamp_index(const uint8_t *img, size_t len, const char *base,
			 const char *out)
{
	_cleanup_free_ char *path = NULL;
	_cleanup_free_ uint8_t *copy = NULL;
	struct fc_img_input was[FC_IN_NROLES], now[FC_IN_NROLES];
	const struct fc_img_hdr *hd = (const struct fc_img_hdr *)img;
	struct fc_img_hdr *nh;
	const struct fc_img_sec *fs;
	int r;

	if (!fc_image_header_ok(hd, len))
		return -EINVAL;
	fs = &hd->sec[FC_SEC_FILES];
	if (hd->nfiles > FC_IN_NROLES || fs->off % 8 || fs->off > len ||
	    fs->len != hd->nfiles * 4ull || fs->len > len - fs->off)
		return -EINVAL;
	if (out ? !(path = strdup(out))
		: asprintf(&path, "%s%s", base, FC_IMG_SUFFIX) < 0)
		return -ENOMEM;
	/* As the writer: the identities taken once the clock has passed
	 * their ctimes, the bytes read after, the identities unchanged. */
	stat_inputs(base, was);
	wait_past(was);
	r = fc_image_inputs(hd, (const uint32_t *)(img + fs->off), hd->nfiles,
			    base, true, now);
	if (r < 0)
		return r;
	for (int k = 0; k < FC_IN_NROLES; k++)
		memcpy(was[k].sum, now[k].sum, sizeof(was[k].sum));
	if (memcmp(was, now, sizeof(was)))
		return -ESTALE;
	copy = malloc(len);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, img, len);
	nh = (struct fc_img_hdr *)copy;
	memcpy(nh->input, now, sizeof(nh->input));
	nh->check = fc_img_check(nh, offsetof(struct fc_img_hdr, check));
	return lbl_fc_put_index(path, copy, len);
}

/* The image at path into *img (malloc'd, *len bytes): 0, or -errno
 * (-ESTALE: not one a reader would take for base's, whose stat is bst,
 * by its owner or mode). */
static int read_image(const char *path, const struct stat *bst, uint8_t **img,
		      size_t *len)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	_cleanup_free_ uint8_t *b = NULL;
	struct stat st;
	size_t got = 0;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		return -errno;
	/* as the reader (index/image.c): no more writable than base */
	if (!S_ISREG(st.st_mode) || st.st_uid != bst->st_uid ||
	    (st.st_mode & 022) || st.st_size < (off_t)sizeof(struct fc_img_hdr))
		return -ESTALE;
	b = malloc(st.st_size);
	if (!b)
		return -ENOMEM;
	while (got < (size_t)st.st_size) {
		ssize_t k = read(fd, b + got, st.st_size - got);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return k < 0 ? -errno : -ESTALE;
		got += k;
	}
	*img = TAKE_PTR(b);
	*len = got;
	return 0;
}

int lbl_fc_refresh_index(const char *base, const char **why)
{
	_cleanup_free_ char *path = NULL;
	_cleanup_free_ uint8_t *img = NULL;
	struct fc_img_input now[FC_IN_NROLES];
	const struct fc_img_hdr *hd;
	struct stat bst;
	size_t len = 0;
	int r;

	*why = NULL;
	if (asprintf(&path, "%s%s", base, FC_IMG_SUFFIX) < 0)
		return -ENOMEM;
	if (stat(base, &bst) < 0)
		memset(&bst, 0, sizeof(bst));
	if (read_image(path, &bst, &img, &len) == 0 &&
	    fc_image_header_ok((hd = (const struct fc_img_hdr *)img), len)) {
		const struct fc_img_sec *fs = &hd->sec[FC_SEC_FILES];

		if (hd->nfiles <= FC_IN_NROLES && !(fs->off % 8) &&
		    fs->off <= len && fs->len == hd->nfiles * 4ull &&
		    fs->len <= len - fs->off) {
			r = fc_image_inputs(hd,
					    (const uint32_t *)(img + fs->off),
					    hd->nfiles, base, false, now);
			if (r == 0)
				return 1;
			if (r == 1 &&
			    lbl_fc_restamp_index(img, len, base, NULL) == 0)
				return 2;
		}
	}
	r = lbl_fc_write_index(base, NULL, why);
	return r < 0 ? r : 3;
}
