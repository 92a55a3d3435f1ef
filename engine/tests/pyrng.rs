//! Reference values for `ludus_engine::kaggle::pyrng`, produced once with the real
//! CPython `random` module and numpy's legacy `RandomState` (versions in each
//! block's comment) and pasted here. Floats are compared by their IEEE-754
//! bits.

use ludus_engine::kaggle::pyrng::{Mt19937, NumpyRandomState, PyRandom};

const PY_SEEDS: [u128; 5] = [0, 1, 42, (1 << 32) + 5, 123_456_789_012_345];

/// Python 3.11.7: for s in (0, 1, 42, 2**32 + 5, 123456789012345):
///     r = random.Random(s); [r.random() for _ in range(10)]  (as IEEE-754 bits)
const PY_RANDOM: [[u64; 10]; 5] = [
    [
        0x3feb0580f98a7dbe,
        0x3fe84129978f9c1a,
        0x3fdaeaa51052e978,
        0x3fd092178fb945a6,
        0x3fe05c5ccdf19707,
        0x3fd9ea70df588b3c,
        0x3fe914e0c751c4f5,
        0x3fd36979c7be0dec,
        0x3fde809082dd48fc,
        0x3fe2ab10cf910f7d,
    ],
    [
        0x3fc132d8f91b7584,
        0x3feb1e2d5b3584f8,
        0x3fe870d778409f13,
        0x3fd0530d08f17f5c,
        0x3fdfb5355e16737a,
        0x3fdcc4762bc72882,
        0x3fe4d9d98184b9da,
        0x3fe93d38c0d6fe64,
        0x3fb8072e8f9c8590,
        0x3f9d071ef2583660,
    ],
    [
        0x3fe4762f307200c5,
        0x3f999c6b5eeb2060,
        0x3fd19a1491f589dc,
        0x3fcc922b623b8c1c,
        0x3fe7912c1468f47e,
        0x3fe5a785aef6719a,
        0x3fec8cbc2a2e7490,
        0x3fb6419f92e55088,
        0x3fdb00c460411746,
        0x3f9e83298bfe34a0,
    ],
    [
        0x3fc4218067c49768,
        0x3fd21442cf1e9172,
        0x3fe357affb575f81,
        0x3f8dbe785ae59e00,
        0x3fe416bcbcaf6e4c,
        0x3fe8e22117cf64cf,
        0x3fedb9efab4d81ff,
        0x3fe5364167e5578a,
        0x3fdfbac375d7ae96,
        0x3fd6af1a077d8728,
    ],
    [
        0x3fe5954c9ce1c7cb,
        0x3fd2b57ebb482db4,
        0x3fccc7967c7ef374,
        0x3fe0cb66f381dd3e,
        0x3fbd7aadf3d82458,
        0x3fe5bb9cc4c2b495,
        0x3fe6b760ddd8e11b,
        0x3fc0f5123cf21034,
        0x3fee4770f115a74f,
        0x3fe29be1bebc295a,
    ],
];

/// Python 3.11.7: for s in (0, 1, 42, 2**32 + 5, 123456789012345):
///     r = random.Random(s); [r.getrandbits(32) for _ in range(10)]
const PY_GETRANDBITS32: [[u64; 10]; 5] = [
    [
        3626764237, 1654615998, 3255389356, 3823568514, 1806341205, 173879092, 1112038970,
        4146640122, 2195908194, 2087043557,
    ],
    [
        577090037, 2444712010, 3639700191, 3445702192, 3280387012, 271041745, 1095513148,
        506456969, 2127877499, 3268308804,
    ],
    [
        2746317213, 478163327, 107420369, 3184935163, 1181241943, 1051802512, 958682846, 599310825,
        3163119785, 440213415,
    ],
    [
        675479763, 2085189291, 1213270837, 3822202474, 2596110301, 3587694693, 62377729,
        1524997693, 2696275445, 735810335,
    ],
    [
        2896848117, 946991832, 1255537387, 1761982086, 965684461, 3354343287, 2254124959,
        3765915577, 494579198, 2663457533,
    ],
];

/// Python 3.11.7: for s in (0, 1, 42, 2**32 + 5, 123456789012345):
///     r = random.Random(s); [r.getrandbits(k) for k in (1, 7, 33, 63, 64, 0)]
const PY_GETRANDBITS: [[u64; 6]; 5] = [
    [
        1,
        49,
        7550356652,
        373402508605428821,
        17809683713383489082,
        0,
    ],
    [
        0,
        72,
        7934667487,
        582057716445789124,
        2175216119781798972,
        0,
    ],
    [
        1,
        14,
        4402387665,
        2258728696626565719,
        2574020394472462046,
        0,
    ],
    [
        0,
        62,
        5508238133,
        7704515687682506717,
        6549815217972825857,
        0,
    ],
    [
        1,
        28,
        1255537387,
        7203397357429271789,
        16174484244966094751,
        0,
    ],
];

/// Python 3.11.7: for s in (0, 1, 42, 2**32 + 5, 123456789012345):
///     r = random.Random(s); [r.randint(0, 20) for _ in range(10)]
const PY_RANDINT: [[i64; 10]; 5] = [
    [12, 13, 1, 8, 16, 15, 12, 9, 15, 11],
    [4, 18, 2, 8, 3, 15, 14, 15, 20, 12],
    [20, 3, 0, 8, 7, 7, 4, 3, 17, 2],
    [5, 15, 9, 19, 0, 11, 20, 5, 15, 11],
    [7, 9, 13, 7, 16, 3, 19, 6, 14, 4],
];

/// Python 3.11.7: for s in (0, 1, 42, 2**32 + 5, 123456789012345):
///     r = random.Random(s); [r.randint(-1000, 10**15) for _ in range(3)] + [r.randrange(-3, 5) for _ in range(3)]
const PY_RANDINT_WIDE: [[i64; 6]; 5] = [
    [433748079018981, 45579999285357, 547108014973562, 3, 1, 4],
    [640865532227085, 903269621786359, 71054924363740, 1, -2, 4],
    [125347071882677, 834911684990697, 275720901774959, 0, -1, -2],
    [546616868273387, 940493059750901, 399767028353817, -1, 4, 2],
    [248247711588621, 461890628482819, 879318210128133, -2, 0, 4],
];

/// Python 3.11.7: for s in (0, 1, 42, 2**32 + 5, 123456789012345):
///     r = random.Random(s); xs = list(range(7)); [r.choice(xs) for _ in range(10)]
const PY_CHOICE: [[usize; 10]; 5] = [
    [6, 3, 6, 3, 0, 2, 4, 3, 3, 6],
    [1, 4, 6, 6, 6, 0, 2, 0, 3, 6],
    [5, 0, 0, 5, 2, 1, 1, 1, 5, 0],
    [1, 3, 2, 4, 6, 0, 2, 5, 1, 6],
    [5, 1, 2, 3, 1, 6, 4, 0, 4, 5],
];

/// Python 3.11.7: for s in (0, 1, 42, 2**32 + 5, 123456789012345):
///     r = random.Random(s); x = list(range(10)); r.shuffle(x); x
const PY_SHUFFLE: [[usize; 10]; 5] = [
    [7, 8, 1, 5, 3, 4, 2, 0, 9, 6],
    [6, 8, 9, 7, 5, 3, 0, 4, 1, 2],
    [7, 3, 2, 8, 5, 6, 9, 4, 0, 1],
    [5, 3, 6, 1, 9, 0, 8, 4, 7, 2],
    [5, 9, 2, 7, 0, 8, 1, 6, 4, 3],
];

/// Python 3.11.7: for s in (0, 1, 42, 2**32 + 5, 123456789012345):
///     r = random.Random(s); [r.uniform(-2.5, 7.0) for _ in range(5)]  (as IEEE-754 bits)
const PY_UNIFORM: [[u64; 5]; 5] = [
    [
        0x4016168928547552,
        0x4012cd6163fa895f,
        0x3ff7ed4806c4ea7c,
        0xbfa4a10154ff52c0,
        0x4002db5c691dc6b0,
    ],
    [
        0xbff3939e582f6473,
        0x401633d5dc4f8de6,
        0x401305ffdeccbce7,
        0xbfb3ac10ac271860,
        0x4001a72f5fbaa920,
    ],
    [
        0x400c98b0130ec1d4,
        0xc002196407f48c99,
        0x3fbcdf0daa7276a0,
        0xbfd849b1ed652678,
        0x4011fc64583ca256,
    ],
    [
        0xbff0183784c68c34,
        0x3fc780f55f44cb70,
        0x4009f041f4ef82d2,
        0xc002e56e88a07aa3,
        0x400bb6004020a5f4,
    ],
    [
        0x400f4295f4983a82,
        0x3fd1bc33f32db230,
        0xbfd74bf530a4fb98,
        0x4003e31482546d74,
        0xbff67f28b737aa6c,
    ],
];

/// Python 3.11.7: r = random.Random(-7); [r.random() for _ in range(3)]
const PY_NEGATIVE_SEVEN: [u64; 3] = [0x3fd4b9ad0f953a6e, 0x3fc34f0696513270, 0x3fe4d474883171ff];

const NP_SEEDS: [u32; 5] = [0, 1, 42, 123_456_789, 4_294_967_295];

/// numpy 2.4.6, Python 3.11.7: for s in (0, 1, 42, 123456789, 2**32 - 1):
///     r = np.random.RandomState(s); [r.random_sample() for _ in range(10)]  (as IEEE-754 bits)
const NP_RANDOM_SAMPLE: [[u64; 10]; 5] = [
    [
        0x3fe18fe1565f12a8,
        0x3fe6e2d4cf608733,
        0x3fe349d66b6e894b,
        0x3fe16faedb6395f5,
        0x3fdb1d2904fd0ef6,
        0x3fe4ab2a21899b5b,
        0x3fdc016dca6159d2,
        0x3fec8967883a12f7,
        0x3feed65349173336,
        0x3fd88a4e4bd24216,
    ],
    [
        0x3fdab07d0ffa3c06,
        0x3fe70ce5f3baf051,
        0x3f1dfb906661c000,
        0x3fd3596ab7fe08f4,
        0x3fc2c8e5a3c7053c,
        0x3fb7a3808cb0ca10,
        0x3fc7d75fe634e1e4,
        0x3fd61daabd5ba3ce,
        0x3fd964a3677bfbe8,
        0x3fe13dfc97629f54,
    ],
    [
        0x3fd7f8771e5f51ec,
        0x3fee6c4068bbd654,
        0x3fe76c7e8f1e6751,
        0x3fe32835d6632cb0,
        0x3fc3f86b37222184,
        0x3fc3f7a0e1997f4c,
        0x3fadbd229d645570,
        0x3febb7b70955b7b5,
        0x3fe33c558c924bad,
        0x3fe6a887d29a8282,
    ],
    [
        0x3fe10cf7d7f66cba,
        0x3fe117a5a40d785f,
        0x3fe04e422ae53d0c,
        0x3fe6d5843c8a5b0c,
        0x3fd072abbe7264a6,
        0x3fe81610e8407223,
        0x3fec48bcff71f9fe,
        0x3fc3d3bbaed498ac,
        0x3fe5751dcde50dad,
        0x3fe4971a4d1d378f,
    ],
    [
        0x3fb8fe69a3924820,
        0x3fed323d824032b1,
        0x3fe93fc6f61af3f9,
        0x3fe8f5ca1b151c07,
        0x3f925ec7244bbf80,
        0x3fef06314e047dc9,
        0x3fe2fb4adec830e1,
        0x3fc2b3f78b30728c,
        0x3fed1999c0aed972,
        0x3fe1b835369cb7f1,
    ],
];

/// numpy 2.4.6, Python 3.11.7: for s in (0, 1, 42, 123456789, 2**32 - 1):
///     r = np.random.RandomState(s); [int(r.randint(-5, 17)) for _ in range(10)]
const NP_RANDINT: [[i64; 10]; 5] = [
    [7, 10, 16, -5, -2, -2, 2, 4, 14, 16],
    [0, 6, 7, 3, 4, 6, 0, 10, -5, 11],
    [1, 14, 9, 5, 2, 15, 1, 13, 5, 5],
    [13, 7, 2, -1, 10, 14, 8, 15, -5, -2],
    [-2, -3, 7, 2, 15, -5, -5, 13, 6, 6],
];

/// numpy 2.4.6, Python 3.11.7: for s in (0, 1, 42, 123456789, 2**32 - 1):
///     r = np.random.RandomState(s); [int(r.randint(0, 2**40)) for _ in range(3)] + [int(r.randint(-2**63, 2**63 - 1)) for _ in range(3)]
const NP_RANDINT_WIDE: [[i64; 6]; 5] = [
    [
        741280623151,
        506137267392,
        291447657211,
        827948490035658087,
        -1408320422220276013,
        2691271404617651954,
    ],
    [
        163196666091,
        605300724808,
        1095766950793,
        -3646320530140619131,
        -6516203644651547712,
        -7520025595111649151,
    ],
    [
        441507790259,
        395924837646,
        458615280711,
        1819927849474927636,
        -6345336139475183495,
        -6345780979313412906,
    ],
    [
        794528788124,
        214804862937,
        389656036125,
        3939561072118645511,
        -4482578086867725084,
        4661374387970934995,
    ],
    [
        700559016226,
        53956357191,
        775354646080,
        5165154706003526138,
        -8892443392435847392,
        8660855838641975931,
    ],
];

/// numpy 2.4.6, Python 3.11.7: for s in (0, 1, 42, 123456789, 2**32 - 1):
///     r = np.random.RandomState(s); [r.gumbel(0, 300.0) for _ in range(10)]  (as IEEE-754 bits)
const NP_GUMBEL: [[u64; 10]; 5] = [
    [
        0x40511f9fc951f7e7,
        0xc051173cbe2bebf3,
        0x4037f71d7c8fa473,
        0x4051f2032064456b,
        0x406658f3a2311fab,
        0xc0267833e3ed382f,
        0x4064b7d575d25411,
        0xc06df74c3618262e,
        0xc07678782cdd2e47,
        0x406b3e54be96b778,
    ],
    [
        0x4067226596f690af,
        0xc0522b63b2dd983b,
        0x40a545955df1d701,
        0x407327c184654908,
        0x408141a14bacb00b,
        0x4085e22e6b0fe2da,
        0x407d9cbfd7ca25d9,
        0x407016c56096bd70,
        0x40699617410cd6f8,
        0x405337b82044b0d4,
    ],
    [
        0x406c5f2d98cee0bc,
        0xc074a9818a67884b,
        0xc054a322b2195478,
        0x403b531f4a3a50bd,
        0x4080a1ff8b44594d,
        0x4080a26711403e17,
        0x408a66a4c6ae1f4d,
        0xc06a33f864d14825,
        0x4039505db43aadc3,
        0xc04f3459c11e1d44,
    ],
    [
        0x40547a3637bc2a9e,
        0x405433d8f5b94c15,
        0x40596dfe8b754cb7,
        0xc050c00bd9fc1fe9,
        0x4076c26067700057,
        0xc05914d43327994c,
        0xc06cc26e40a2bb42,
        0x4080b4d40590f8d0,
        0xc03f64fa433f5094,
        0xc0227917600aa0d7,
    ],
    [
        0x4085557ebc1c8c01,
        0xc070af4ec6c691d9,
        0xc06094bc0fec9e5a,
        0xc05f1d204bf495af,
        0x4092ce0b27b386ed,
        0xc0776fd5cea687bb,
        0x403fd1356202b8c2,
        0x40814cf90abed4cd,
        0xc0706c4d2b1b947c,
        0x405018c4beec54d3,
    ],
];

/// numpy 2.4.6, Python 3.11.7: for s in (0, 1, 42, 123456789, 2**32 - 1):
///     r = np.random.RandomState(s); list(r.binomial(1, 0.5, size=20))
const NP_BINOMIAL_HALF: [[i64; 20]; 5] = [
    [1, 1, 1, 1, 0, 1, 0, 1, 1, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1],
    [0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0],
    [0, 1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0],
    [1, 1, 1, 1, 0, 1, 1, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1],
    [0, 1, 1, 1, 0, 1, 1, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 1],
];

/// numpy 2.4.6, Python 3.11.7: for s in (0, 1, 42, 123456789, 2**32 - 1):
///     r = np.random.RandomState(s); list(r.binomial(10, 0.3, size=5)) + list(r.binomial(7, 0.8, size=5))
const NP_BINOMIAL_OTHER: [[i64; 10]; 5] = [
    [3, 4, 3, 3, 3, 5, 6, 4, 4, 6],
    [3, 4, 0, 2, 1, 7, 7, 6, 6, 6],
    [2, 5, 4, 3, 2, 7, 7, 4, 5, 5],
    [3, 3, 3, 4, 2, 5, 4, 7, 5, 5],
    [1, 5, 4, 4, 0, 3, 5, 7, 4, 6],
];

/// numpy 2.4.6, Python 3.11.7: for s in (0, 1, 42, 123456789, 2**32 - 1):
///     r = np.random.RandomState(s); [int(r.gumbel(1.5, 2.0) * 1e6), int(r.binomial(1, 0.5)), int(r.binomial(3, 0.25)), int(r.binomial(1, 0.5)), int(r.randint(0, 1000)), int(r.random_sample() * 2**53)]
const NP_MIXED: [[i64; 6]; 5] = [
    [1956627, 1, 1, 1, 9, 5616562464974148],
    [2733832, 1, 0, 0, 847, 2126500457254402],
    [3013162, 1, 1, 1, 614, 4015704439241991],
    [2046063, 1, 1, 1, 762, 7258505987932701],
    [6051245, 1, 1, 1, 473, 2554096387147305],
];

/// numpy 2.4.6, Python 3.11.7, the random calls of `populate_board` in kaggle-environments
/// 1.33.2 (halite.py, kore_fleets.py) for size 21 (half = 11), randomSeed 42:
///     np.random.seed(42); random.seed(42)
///     ri = []
///     for i in range(11): ri += [random.randint(0, 10), random.randint(0, 10), random.randint(5, 10), random.randint(5, 10)]
///     add = np.random.gumbel(0, 300.0, size=(11, 11)).astype(int).flatten()
///     sparse = np.random.binomial(1, 0.5, size=(11, 11)).flatten()
///     corner = np.random.gumbel(0, 500.0, size=(2, 2)).astype(int).flatten()
const BOARD_RANDINT: [i64; 44] = [
    10, 1, 5, 10, 4, 3, 6, 6, 1, 10, 10, 9, 1, 9, 8, 5, 0, 1, 6, 6, 8, 9, 5, 9, 3, 10, 10, 9, 6, 3,
    8, 9, 4, 0, 6, 10, 6, 5, 7, 6, 3, 5, 5, 5,
];
const BOARD_ADD: [i64; 121] = [
    226, -330, -82, 27, 532, 532, 844, -209, 25, -62, 1161, -376, -174, 429, 481, 478, 304, 88,
    170, 319, 16, 568, 318, 235, 148, -129, 450, 97, 32, 913, 20, 503, 809, -326, -364, -150, 303,
    682, -42, 163, 611, 114, 1005, -262, 361, -24, 295, 92, 70, 476, -375, -120, -309, -243, 27,
    -280, 713, 456, 921, 279, 212, 345, -170, 245, 332, 73, 565, -144, 767, -439, -117, 452, 1558,
    -157, -61, -80, -116, 769, 243, 628, -206, 7, 273, 816, 296, 279, -80, -4, -234, 134, 618, -66,
    -107, 58, -116, 115, 90, 175, 1097, 651, 1033, -3, 292, 102, -260, 374, 191, -102, 404, 757,
    321, 521, -292, -150, -1, -215, -146, 473, -240, 76, -149,
];
const BOARD_SPARSE: [i64; 121] = [
    1, 0, 0, 0, 0, 1, 1, 0, 1, 0, 0, 0, 0, 1, 0, 1, 1, 0, 1, 1, 0, 0, 0, 0, 0, 1, 1, 0, 0, 1, 0, 0,
    0, 1, 0, 1, 1, 0, 1, 0, 1, 1, 1, 0, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 0, 0, 1, 1, 0,
    1, 1, 1, 1, 0, 0, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 1, 1, 1, 0, 1, 0, 0,
    1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 0, 1, 1, 1, 1, 1, 0, 0, 1, 0, 0, 1, 0, 1, 1,
];
const BOARD_CORNER: [i64; 4] = [-450, 385, 2080, -484];

fn bits(xs: &[f64]) -> Vec<u64> {
    xs.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn mt19937_reference_outputs() {
    // The reference `mt19937ar.c` test vector: init_by_array({0x123, 0x234,
    // 0x345, 0x456}), first outputs of genrand_int32.
    let mut mt = Mt19937::from_key(&[0x123, 0x234, 0x345, 0x456]);
    let first: Vec<u32> = (0..5).map(|_| mt.genrand_u32()).collect();
    assert_eq!(
        first,
        [
            1_067_595_299,
            955_945_823,
            477_289_528,
            4_107_218_783,
            4_228_976_476
        ]
    );
    // The C++ standard's check: the 10000th output of mt19937 seeded with 5489.
    let mut mt = Mt19937::new(5489);
    let mut last = 0;
    for _ in 0..10_000 {
        last = mt.genrand_u32();
    }
    assert_eq!(last, 4_123_659_995);
}

#[test]
fn python_random() {
    for (i, &s) in PY_SEEDS.iter().enumerate() {
        let mut r = PyRandom::new(s);
        let got: Vec<f64> = (0..10).map(|_| r.random()).collect();
        assert_eq!(bits(&got), PY_RANDOM[i], "seed {s}");
    }
}

#[test]
fn python_negative_seed_uses_absolute_value() {
    let mut r = PyRandom::from_signed(-7);
    let got: Vec<f64> = (0..3).map(|_| r.random()).collect();
    assert_eq!(bits(&got), PY_NEGATIVE_SEVEN);
}

#[test]
fn python_getrandbits() {
    for (i, &s) in PY_SEEDS.iter().enumerate() {
        let mut r = PyRandom::new(s);
        let got: Vec<u64> = (0..10).map(|_| r.getrandbits(32)).collect();
        assert_eq!(got, PY_GETRANDBITS32[i], "seed {s}");
        let mut r = PyRandom::new(s);
        let got: Vec<u64> = [1, 7, 33, 63, 64, 0]
            .iter()
            .map(|&k| r.getrandbits(k))
            .collect();
        assert_eq!(got, PY_GETRANDBITS[i], "seed {s}");
    }
}

#[test]
fn python_randint_and_randrange() {
    for (i, &s) in PY_SEEDS.iter().enumerate() {
        let mut r = PyRandom::new(s);
        let got: Vec<i64> = (0..10).map(|_| r.randint(0, 20)).collect();
        assert_eq!(got, PY_RANDINT[i], "seed {s}");
        let mut r = PyRandom::new(s);
        let mut got: Vec<i64> = (0..3)
            .map(|_| r.randint(-1000, 1_000_000_000_000_000))
            .collect();
        got.extend((0..3).map(|_| r.randrange(-3, 5)));
        assert_eq!(got, PY_RANDINT_WIDE[i], "seed {s}");
    }
}

#[test]
fn python_choice() {
    for (i, &s) in PY_SEEDS.iter().enumerate() {
        let mut r = PyRandom::new(s);
        let got: Vec<usize> = (0..10).map(|_| r.choice(7)).collect();
        assert_eq!(got, PY_CHOICE[i], "seed {s}");
    }
}

#[test]
fn python_shuffle() {
    for (i, &s) in PY_SEEDS.iter().enumerate() {
        let mut r = PyRandom::new(s);
        let mut x: Vec<usize> = (0..10).collect();
        r.shuffle(&mut x);
        assert_eq!(x, PY_SHUFFLE[i], "seed {s}");
    }
}

#[test]
fn python_uniform() {
    for (i, &s) in PY_SEEDS.iter().enumerate() {
        let mut r = PyRandom::new(s);
        let got: Vec<f64> = (0..5).map(|_| r.uniform(-2.5, 7.0)).collect();
        assert_eq!(bits(&got), PY_UNIFORM[i], "seed {s}");
    }
}

#[test]
fn numpy_random_sample() {
    for (i, &s) in NP_SEEDS.iter().enumerate() {
        let mut r = NumpyRandomState::new(s);
        let got: Vec<f64> = (0..10).map(|_| r.random_sample()).collect();
        assert_eq!(bits(&got), NP_RANDOM_SAMPLE[i], "seed {s}");
    }
}

#[test]
fn numpy_randint() {
    for (i, &s) in NP_SEEDS.iter().enumerate() {
        let mut r = NumpyRandomState::new(s);
        let got: Vec<i64> = (0..10).map(|_| r.randint(-5, 17)).collect();
        assert_eq!(got, NP_RANDINT[i], "seed {s}");
        let mut r = NumpyRandomState::new(s);
        let mut got: Vec<i64> = (0..3).map(|_| r.randint(0, 1 << 40)).collect();
        got.extend((0..3).map(|_| r.randint(i64::MIN, i64::MAX)));
        assert_eq!(got, NP_RANDINT_WIDE[i], "seed {s}");
    }
}

#[test]
fn numpy_gumbel() {
    for (i, &s) in NP_SEEDS.iter().enumerate() {
        let mut r = NumpyRandomState::new(s);
        let got: Vec<f64> = (0..10).map(|_| r.gumbel(0.0, 300.0)).collect();
        assert_eq!(bits(&got), NP_GUMBEL[i], "seed {s}");
    }
}

#[test]
fn numpy_binomial() {
    for (i, &s) in NP_SEEDS.iter().enumerate() {
        let mut r = NumpyRandomState::new(s);
        let got: Vec<i64> = (0..20).map(|_| r.binomial(1, 0.5)).collect();
        assert_eq!(got, NP_BINOMIAL_HALF[i], "seed {s}");
        let mut r = NumpyRandomState::new(s);
        let mut got: Vec<i64> = (0..5).map(|_| r.binomial(10, 0.3)).collect();
        got.extend((0..5).map(|_| r.binomial(7, 0.8)));
        assert_eq!(got, NP_BINOMIAL_OTHER[i], "seed {s}");
    }
}

#[test]
fn numpy_mixed_calls_share_one_stream() {
    for (i, &s) in NP_SEEDS.iter().enumerate() {
        let mut r = NumpyRandomState::new(s);
        let got = [
            (r.gumbel(1.5, 2.0) * 1e6) as i64,
            r.binomial(1, 0.5),
            r.binomial(3, 0.25),
            r.binomial(1, 0.5),
            r.randint(0, 1000),
            (r.random_sample() * 9_007_199_254_740_992.0) as i64,
        ];
        assert_eq!(got, NP_MIXED[i], "seed {s}");
    }
}

#[test]
fn populate_board_random_calls() {
    let half = 11;
    let mut np = NumpyRandomState::new(42);
    let mut py = PyRandom::new(42);
    let mut ri = Vec::new();
    for _ in 0..half {
        ri.push(py.randint(0, half - 1));
        ri.push(py.randint(0, half - 1));
        ri.push(py.randint(half / 2, half - 1));
        ri.push(py.randint(half / 2, half - 1));
    }
    assert_eq!(ri, BOARD_RANDINT);
    // `.astype(int)` truncates towards zero, as `as i64` does.
    let add: Vec<i64> = (0..half * half)
        .map(|_| np.gumbel(0.0, 300.0) as i64)
        .collect();
    assert_eq!(add, BOARD_ADD);
    let sparse: Vec<i64> = (0..half * half).map(|_| np.binomial(1, 0.5)).collect();
    assert_eq!(sparse, BOARD_SPARSE);
    let corner: Vec<i64> = (0..(half / 4) * (half / 4))
        .map(|_| np.gumbel(0.0, 500.0) as i64)
        .collect();
    assert_eq!(corner, BOARD_CORNER);
}
