/* SPDX-License-Identifier: MIT */
/*
 * test_util_buf.c — struct pk_buf (util/buf.h), the library's one buffer and
 * string builder: binary appends at offsets, alignment, text appends kept
 * NUL-terminated, printf-appends of any length, reset, detach, the sticky
 * error; a fixed buffer (the caller's array: text cut and counted, binary
 * appends refused, never written past), a spilling one (a stack array first,
 * then the heap, contents kept); and the size checks (a length that would
 * overflow size_t fails, nothing written); whole files read into it, with or
 * without the size known, appended after what is there.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "util/buf.h"

static void test_binary(void **state)
{
	(void)state;
	struct pk_buf b = { 0 };
	assert_int_equal(pk_buf__append(&b, "abc", 3), 0);
	assert_int_equal(pk_buf__align(&b, 8), 0);
	assert_int_equal(b.len, 8);
	assert_memory_equal(b.data, "abc\0\0\0\0\0", 8);
	assert_int_equal(pk_buf__append_u32(&b, 0x01020304), 0);
	assert_int_equal(pk_buf__append(&b, "x", 1), 12);
	assert_int_equal(pk_buf__align(&b, 32), 0);	/* pads longer than any table of zeros */
	assert_int_equal(b.len, 32);
	for (size_t i = 13; i < 32; i++)
		assert_int_equal(b.data[i], 0);
	assert_int_equal(pk_buf__append(&b, NULL, 0), 32);
	unsigned char big[10000];
	memset(big, 0xab, sizeof(big));
	assert_int_equal(pk_buf__append(&b, big, sizeof(big)), 32);
	assert_int_equal(b.len, 32 + sizeof(big));
	assert_memory_equal(b.data + 32, big, sizeof(big));
	pk_buf__free(&b);
	assert_null(b.data);
	assert_int_equal(b.len, 0);
	assert_int_equal(b.cap, 0);
}

static void test_text(void **state)
{
	(void)state;
	struct pk_buf b = { 0 };
	assert_string_equal(pk_buf__str(&b), "");
	assert_int_equal(pk_buf__puts(&b, "event="), 0);
	assert_int_equal(pk_buf__printf(&b, "0x%x", 0x3c), 0);
	assert_int_equal(pk_buf__putc(&b, ','), 0);
	assert_int_equal(pk_buf__add(&b, "umask=0x01xyz", 10), 0);
	assert_string_equal((const char *)b.data, "event=0x3c,umask=0x01");
	assert_int_equal(b.len, strlen("event=0x3c,umask=0x01"));
	/* a printf longer than the room left: formatted again after growing */
	char want[3000];
	memset(want, 'y', sizeof(want) - 1);
	want[sizeof(want) - 1] = '\0';
	assert_int_equal(pk_buf__printf(&b, "[%s]", want), 0);
	assert_int_equal(b.len, 21 + 2 + strlen(want));
	assert_int_equal(b.data[21], '[');
	assert_int_equal(b.data[b.len - 1], ']');
	assert_int_equal(b.data[b.len], '\0');
	pk_buf__reset(&b);
	assert_int_equal(b.len, 0);
	assert_string_equal(pk_buf__str(&b), "");
	assert_int_equal(pk_buf__puts(&b, "again"), 0);
	size_t len = 0;
	char *s = pk_buf__detach(&b, &len);
	assert_string_equal(s, "again");
	assert_int_equal(len, 5);
	assert_null(b.data);
	assert_int_equal(b.len, 0);
	free(s);
	/* detaching an empty buffer gives an empty string, not NULL */
	s = pk_buf__detach(&b, &len);
	assert_non_null(s);
	assert_string_equal(s, "");
	assert_int_equal(len, 0);
	free(s);
}

static void test_str_after_binary(void **state)
{
	(void)state;
	struct pk_buf b = { 0 };
	char exact[64];
	memset(exact, 'q', sizeof(exact));
	assert_int_equal(pk_buf__append(&b, exact, sizeof(exact)), 0);
	assert_int_equal(b.len, b.cap);	/* full: str must make room for the NUL */
	const char *s = pk_buf__str(&b);
	assert_int_equal(strlen(s), sizeof(exact));
	pk_buf__free(&b);
}

static void test_fixed(void **state)
{
	(void)state;
	char mem[16];
	memset(mem, '#', sizeof(mem));
	struct pk_buf b;
	pk_buf__init_fixed(&b, mem, 8);
	assert_int_equal(pk_buf__puts(&b, "abc"), 0);
	assert_string_equal(mem, "abc");
	assert_int_equal(pk_buf__printf(&b, "%d", 123456), 0);	/* 4 of 6 digits fit */
	assert_string_equal(mem, "abc1234");
	assert_int_equal(b.len, 7);
	assert_int_equal(b.cut, 2);
	assert_int_equal(pk_buf__puts(&b, "more"), 0);
	assert_int_equal(b.cut, 6);
	assert_int_equal(pk_buf__putc(&b, 'z'), 0);
	assert_int_equal(b.cut, 7);
	assert_string_equal(mem, "abc1234");
	for (size_t i = 8; i < sizeof(mem); i++)	/* nothing past the array */
		assert_int_equal(mem[i], '#');
	assert_ptr_equal(b.data, (unsigned char *)mem);
	/* binary appends do not cut: they fail (one byte is left: the NUL's) */
	assert_int_equal(pk_buf__append(&b, "xy", 2), -1);
	assert_int_equal(b.err, -ENOSPC);
	pk_buf__reset(&b);
	assert_int_equal(b.err, 0);
	assert_int_equal(b.cut, 0);
	assert_int_equal(pk_buf__append(&b, "1234", 4), 0);
	/* a detached copy of a fixed buffer is the caller's heap string */
	size_t len;
	char *s = pk_buf__detach(&b, &len);
	assert_int_equal(len, 4);
	assert_memory_equal(s, "1234", 4);
	free(s);
	/* size 0: everything is cut, nothing written */
	pk_buf__init_fixed(&b, mem, 0);
	assert_int_equal(pk_buf__printf(&b, "%s", "abc"), 0);
	assert_int_equal(pk_buf__puts(&b, "de"), 0);
	assert_int_equal(b.cut, 5);
	assert_int_equal(mem[0], '1');
	pk_buf__free(&b);	/* the caller's array is never freed */
}

static void test_spill(void **state)
{
	(void)state;
	char stack[8];
	struct pk_buf b;
	pk_buf__init_spill(&b, stack, sizeof(stack));
	assert_int_equal(pk_buf__puts(&b, "abcdefg"), 0);
	assert_ptr_equal(b.data, (unsigned char *)stack);
	assert_string_equal(stack, "abcdefg");
	assert_int_equal(pk_buf__puts(&b, "hij"), 0);	/* no room for the NUL: to the heap */
	assert_ptr_not_equal(b.data, (unsigned char *)stack);
	assert_string_equal(pk_buf__str(&b), "abcdefghij");
	assert_int_equal(b.cut, 0);
	char *s = pk_buf__detach(&b, NULL);
	assert_string_equal(s, "abcdefghij");
	free(s);
	/* detached while still on the stack: a heap copy */
	pk_buf__init_spill(&b, stack, sizeof(stack));
	assert_int_equal(pk_buf__puts(&b, "ab"), 0);
	s = pk_buf__detach(&b, NULL);
	assert_ptr_not_equal(s, stack);
	assert_string_equal(s, "ab");
	free(s);
	pk_buf__free(&b);
}

static void test_overflow_and_sticky(void **state)
{
	(void)state;
	struct pk_buf b = { 0 };
	assert_int_equal(pk_buf__puts(&b, "keep"), 0);
	unsigned char *data = b.data;
	size_t cap = b.cap;
	/* len + n wraps size_t: refused before any allocation */
	assert_int_equal(pk_buf__reserve(&b, SIZE_MAX - 1), -ENOMEM);
	assert_ptr_equal(b.data, data);
	assert_int_equal(b.cap, cap);
	assert_int_equal(b.len, 4);
	assert_string_equal((const char *)b.data, "keep");
	/* sticky: later appends do nothing and say so */
	assert_int_equal(pk_buf__puts(&b, "x"), -ENOMEM);
	assert_int_equal(pk_buf__printf(&b, "%d", 1), -ENOMEM);
	assert_int_equal(pk_buf__append(&b, "x", 1), -1);
	assert_int_equal(b.len, 4);
	assert_string_equal(pk_buf__str(&b), "");
	assert_null(pk_buf__detach(&b, NULL));	/* and the buffer is freed */
	assert_null(b.data);
	/* truncate undoes failed appends and clears the error, keeping the rest */
	assert_int_equal(pk_buf__puts(&b, "abcdef"), 0);
	assert_int_equal(pk_buf__reserve(&b, SIZE_MAX), -ENOMEM);
	pk_buf__truncate(&b, 3);
	assert_int_equal(b.err, 0);
	assert_string_equal(pk_buf__str(&b), "abc");
	pk_buf__truncate(&b, 10);	/* longer than the contents: nothing cut */
	assert_string_equal(pk_buf__str(&b), "abc");
	pk_buf__reset(&b);
	/* a text append of SIZE_MAX bytes (its NUL would wrap) */
	assert_int_equal(pk_buf__add(&b, "", SIZE_MAX), -ENOMEM);
	pk_buf__reset(&b);
	assert_int_equal(pk_buf__puts(&b, "ok"), 0);
	assert_string_equal(pk_buf__str(&b), "ok");
	pk_buf__free(&b);
}

static void test_read_fd(void **state)
{
	(void)state;
	char path[] = "/tmp/pmukit-test-buf-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	enum { N = 300000 };
	char *want = malloc(N);
	assert_non_null(want);
	for (size_t i = 0; i < N; i++)
		want[i] = (char)('a' + i % 23);
	assert_int_equal(write(fd, want, N), N);
	size_t hints[] = { 0, N, 10, N * 3 };
	for (size_t h = 0; h < sizeof(hints) / sizeof(hints[0]); h++) {
		struct pk_buf b = { 0 };
		assert_int_equal(pk_buf__puts(&b, "head:"), 0);
		assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
		assert_int_equal(pk_buf__read_fd(&b, fd, hints[h]), 0);
		assert_int_equal(b.len, 5 + N);
		assert_memory_equal(b.data, "head:", 5);
		assert_memory_equal(b.data + 5, want, N);
		assert_int_equal(b.data[b.len], '\0');
		pk_buf__free(&b);
	}
	/* an empty file: an empty string */
	assert_int_equal(ftruncate(fd, 0), 0);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	struct pk_buf b = { 0 };
	assert_int_equal(pk_buf__read_fd(&b, fd, 0), 0);
	assert_int_equal(b.len, 0);
	assert_string_equal(pk_buf__str(&b), "");
	close(fd);
	/* a bad descriptor: its errno */
	assert_int_equal(pk_buf__read_fd(&b, fd, 0), -EBADF);
	pk_buf__free(&b);
	free(want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_binary),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_str_after_binary),
		cmocka_unit_test(test_fixed),
		cmocka_unit_test(test_spill),
		cmocka_unit_test(test_overflow_and_sticky),
		cmocka_unit_test(test_read_fd),
	};
	return cmocka_run_group_tests_name("util_buf", tests, NULL, NULL);
}
