/* The statistics every figure stands on, against values computed by hand:
 * a ci95 (Student's t at 0.975 with n - 1 degrees of freedom, the sample
 * standard deviation) and a least-squares standard error (the residual
 * variance over the degrees of freedom left).  Outside tests/unit: it
 * links GSL, which the model's unit tests may not. */
#include <math.h>
#include "unit/unit.h"
#include "report/report.h"

/* 1 2 3 4 5: mean 3, s = sqrt(2.5); t(0.975, 4) = 2.776445105;
 * 2.776445105 x 1.581138830 / 2.236067977 = 1.963243161 */
START_TEST(ci95_of_five)
{
	const double v[] = { 1, 2, 3, 4, 5 };

	ck_assert_double_eq_tol(rep_ci95(v, 5), 1.963243161, 1e-8);
}
END_TEST

/* 10 12: s = sqrt(2); t(0.975, 1) = 12.706204736; / sqrt(2) x sqrt(2) */
START_TEST(ci95_of_two)
{
	const double v[] = { 10, 12 };

	ck_assert_double_eq_tol(rep_ci95(v, 2), 12.706204736, 1e-8);
	ck_assert(isnan(rep_ci95(v, 1)));	/* no interval of one */
}
END_TEST

/* chisq 8 over 6 rows and 2 parameters: s2 = 8 / 4 = 2; covar 0.5:
 * sqrt(2 x 0.5) = 1 (chisq / rows would give 0.816); through a transform
 * of derivative 0.25: 0.25.  chisq 3, 4 rows, 1 parameter, covar 2:
 * sqrt(1 x 2) = 1.414213562.  No degree of freedom left: NAN. */
START_TEST(fit_standard_error)
{
	ck_assert_double_eq_tol(rep_fit_se(8, 6, 2, 0.5, 1), 1, 1e-12);
	ck_assert_double_eq_tol(rep_fit_se(8, 6, 2, 0.5, 0.25), 0.25, 1e-12);
	ck_assert_double_eq_tol(rep_fit_se(3, 4, 1, 2, 1), 1.414213562, 1e-9);
	ck_assert(isnan(rep_fit_se(3, 2, 2, 2, 1)));
}
END_TEST

int main(void)
{
	const struct unit_test tests[] = {
		{ ci95_of_five, UNIT_ONCE },
		{ ci95_of_two, UNIT_ONCE },
		{ fit_standard_error, UNIT_ONCE },
	};

	return unit_main("stats", tests, ARRAY_SIZE(tests), NULL, NULL);
}
