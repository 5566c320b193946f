/* SPDX-License-Identifier: MIT */
/*
 * test_util_error.c — util/error.h, the library's one error setter for each
 * report: pk_error__set (file, line, column, message; NULL file is "") and
 * pk_spec_error__set (offending bytes, hint, message): both return the code,
 * accept a NULL report, overwrite what was there, and cut messages longer
 * than their arrays, NUL-terminated; pk_error__format's four shapes.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "util/error.h"

static void test_error_set(void **state)
{
	(void)state;
	struct pk_error e;
	memset(&e, 'x', sizeof(e));
	assert_int_equal(pk_error__set(&e, -EINVAL, "a.json", 3, 7, "bad %s", "key"), -EINVAL);
	assert_int_equal(e.code, -EINVAL);
	assert_string_equal(e.file, "a.json");
	assert_int_equal(e.line, 3);
	assert_int_equal(e.column, 7);
	assert_string_equal(e.msg, "bad key");
	assert_int_equal(pk_error__set(NULL, -ENOMEM, NULL, 0, 0, "x"), -ENOMEM);
	assert_int_equal(pk_error__set(&e, -ENOMEM, NULL, 0, 0, "out of memory"), -ENOMEM);
	assert_string_equal(e.file, "");
	char big[2000];
	memset(big, 'm', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	pk_error__set(&e, -E2BIG, big, 1, 0, "%s", big);
	assert_int_equal(strlen(e.file), sizeof(e.file) - 1);
	assert_int_equal(strlen(e.msg), sizeof(e.msg) - 1);
}

static void test_error_format(void **state)
{
	(void)state;
	struct pk_error e;
	char buf[128];
	pk_error__set(&e, -EINVAL, "f", 2, 5, "m");
	assert_string_equal(pk_error__format(&e, buf, sizeof(buf)), "f:2:5: m");
	pk_error__set(&e, -EINVAL, "f", 2, 0, "m");
	assert_string_equal(pk_error__format(&e, buf, sizeof(buf)), "f:2: m");
	pk_error__set(&e, -EINVAL, "f", 0, 0, "m");
	assert_string_equal(pk_error__format(&e, buf, sizeof(buf)), "f: m");
	pk_error__set(&e, -EINVAL, NULL, 0, 0, "m");
	assert_string_equal(pk_error__format(&e, buf, sizeof(buf)), "m");
}

static void test_spec_error_set(void **state)
{
	(void)state;
	struct pk_spec_error e;
	memset(&e, 'x', sizeof(e));
	assert_int_equal(pk_spec_error__set(&e, -EINVAL, 12, 5, "did you mean 'umask'?",
					    "unknown term '%s'", "umsak"), -EINVAL);
	assert_int_equal(e.code, -EINVAL);
	assert_int_equal(e.off, 12);
	assert_int_equal(e.len, 5);
	assert_string_equal(e.msg, "unknown term 'umsak'");
	assert_string_equal(e.hint, "did you mean 'umask'?");
	/* no hint clears the previous one */
	assert_int_equal(pk_spec_error__set(&e, -ENOMEM, 0, 0, NULL, "out of memory"), -ENOMEM);
	assert_string_equal(e.hint, "");
	assert_string_equal(e.msg, "out of memory");
	assert_int_equal(pk_spec_error__set(NULL, -E2BIG, 0, 0, NULL, "x"), -E2BIG);
	char big[1000];
	memset(big, 'h', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	pk_spec_error__set(&e, -EINVAL, 1, 1, big, "%s", big);
	assert_int_equal(strlen(e.msg), sizeof(e.msg) - 1);
	assert_int_equal(strlen(e.hint), sizeof(e.hint) - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_error_set),
		cmocka_unit_test(test_error_format),
		cmocka_unit_test(test_spec_error_set),
	};
	return cmocka_run_group_tests_name("util_error", tests, NULL, NULL);
}
