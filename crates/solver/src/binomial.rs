//! Binomial coefficients up to 64, built at compile time.

/// `BINOMIAL[n][k]` = n choose k, for n, k ≤ 64 (0 where k > n).
pub static BINOMIAL: [[u64; 65]; 65] = {
    let mut table = [[0u64; 65]; 65];
    let mut n = 0;
    while n <= 64 {
        table[n][0] = 1;
        let mut k = 1;
        while k <= n {
            table[n][k] = table[n - 1][k - 1] + if k < n { table[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    assert!(table[45][7] == 45_379_620);
    assert!(table[64][32] == 1_832_624_140_942_590_534);
    table
};

/// n choose k.
#[inline(always)]
pub fn choose(n: usize, k: usize) -> u64 {
    BINOMIAL[n][k]
}
