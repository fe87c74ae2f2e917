/* Row sums and column sums of a row-major matrix with one call each: the matrix viewed as
 * [outer][extent][inner] is [rows][cols][1] for row sums and [1][rows][cols] for column sums.
 * A row's sum has the bits of hipreduce_reduce over that row. Runs on GPU 0 where there is
 * one, else on the cpu device. */
#include "example.h"

int main(int argc, char** argv)
{
    hipreduce_handle h = example_open(argc, argv);
    enum { ROWS = 300, COLS = 500 };
    float* m = (float*)malloc(ROWS * COLS * sizeof *m);
    for (int r = 0; r < ROWS; ++r)
        for (int c = 0; c < COLS; ++c) m[r * COLS + c] = (float)(r + c); /* small integers: exact sums */
    void* d_m = example_upload(h, m, ROWS * COLS * sizeof *m);

    float row_sums[ROWS], col_sums[COLS];
    CHECK(h, hipreduce_reduce_axis(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, d_m, ROWS, COLS, 1, HIPREDUCE_F32, row_sums,
                                   HIPREDUCE_RESULT_HOST));
    CHECK(h, hipreduce_reduce_axis(h, HIPREDUCE_OP_SUM, HIPREDUCE_F32, d_m, 1, ROWS, COLS, HIPREDUCE_F32, col_sums,
                                   HIPREDUCE_RESULT_HOST));
    int ok = 1;
    for (int r = 0; r < ROWS; ++r) ok &= row_sums[r] == (float)(COLS * r + COLS * (COLS - 1) / 2);
    for (int c = 0; c < COLS; ++c) ok &= col_sums[c] == (float)(ROWS * c + ROWS * (ROWS - 1) / 2);
    printf("row 0: %.0f, row %d: %.0f; column 0: %.0f, column %d: %.0f\n", row_sums[0], ROWS - 1, row_sums[ROWS - 1],
           col_sums[0], COLS - 1, col_sums[COLS - 1]);

    example_free(h, d_m);
    free(m);
    CHECK(h, hipreduce_destroy(h));
    printf("%s\n", ok ? "ok" : "MISMATCH");
    return ok ? 0 : 1;
}
