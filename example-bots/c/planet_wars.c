/*
 * Planet Wars in C, for the Ludus core-module ABI (docs/bot-abi.md).
 *
 * Every turn: send the ships of my strongest planet to the weakest planet I
 * do not own, when they are enough to take it (the Python sample bot's
 * strategy). Standard C and wasi-libc only; the JSON reader below knows just
 * enough JSON for the observation and skips everything else.
 *
 * Build (Debian 12: apt-get install clang lld wasi-libc libclang-rt-14-dev-wasm32):
 *
 *   clang --target=wasm32-wasi --sysroot=/usr -O2 -mexec-model=reactor \
 *     -Wl,--export=ludus_alloc -Wl,--export=act -o planet_wars.wasm planet_wars.c
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PLANETS 512
#define MAX_NAME 64

struct planet {
    char name[MAX_NAME];
    long owner; /* 0 when neutral (null) */
    long ship_count;
};

static struct planet planets[MAX_PLANETS];
static int planet_count;

/* The observation buffer, reused from turn to turn. */
static char *input;
static size_t input_cap;

/* The answer: a static buffer that stays valid until the next call. */
static char answer[4096];

__attribute__((export_name("ludus_alloc"))) char *ludus_alloc(int32_t len) {
    if ((size_t)len + 1 > input_cap) {
        free(input);
        input_cap = (size_t)len + 1;
        input = malloc(input_cap);
    }
    return input;
}

/* ---- a tiny JSON reader: a cursor over the observation ---- */

static const char *p, *end;

static void skip_ws(void) {
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) p++;
}

static int expect(char c) {
    skip_ws();
    if (p < end && *p == c) {
        p++;
        return 1;
    }
    return 0;
}

/* Reads a string into out (truncated to cap), handling escapes by copying the escaped byte. */
static int read_string(char *out, size_t cap) {
    size_t n = 0;
    if (!expect('"')) return 0;
    while (p < end && *p != '"') {
        char c = *p++;
        if (c == '\\' && p < end) c = *p++;
        if (out && n + 1 < cap) out[n++] = c;
    }
    if (out) out[n] = 0;
    return expect('"');
}

static void skip_value(void);

static void skip_container(char open, char close) {
    int depth = 0;
    do {
        if (p >= end) return;
        if (*p == '"') {
            read_string(NULL, 0);
            continue;
        }
        if (*p == open) depth++;
        if (*p == close) depth--;
        p++;
    } while (depth > 0);
}

static void skip_value(void) {
    skip_ws();
    if (p >= end) return;
    if (*p == '"') read_string(NULL, 0);
    else if (*p == '{') skip_container('{', '}');
    else if (*p == '[') skip_container('[', ']');
    else
        while (p < end && *p != ',' && *p != '}' && *p != ']') p++;
}

static long read_long(void) {
    skip_ws();
    if (p + 4 <= end && memcmp(p, "null", 4) == 0) {
        p += 4;
        return 0;
    }
    char *stop;
    long v = strtol(p, &stop, 10);
    p = stop;
    skip_value(); /* a fraction or exponent, if any */
    return v;
}

static void read_planet(struct planet *pl) {
    char key[32];
    memset(pl, 0, sizeof *pl);
    if (!expect('{')) return;
    if (expect('}')) return;
    do {
        if (!read_string(key, sizeof key) || !expect(':')) return;
        if (strcmp(key, "name") == 0) read_string(pl->name, sizeof pl->name);
        else if (strcmp(key, "owner") == 0) pl->owner = read_long();
        else if (strcmp(key, "ship_count") == 0) pl->ship_count = read_long();
        else skip_value();
    } while (expect(','));
    expect('}');
}

static void read_observation(const char *json, size_t len) {
    char key[32];
    p = json;
    end = json + len;
    planet_count = 0;
    if (!expect('{')) return;
    do {
        if (!read_string(key, sizeof key) || !expect(':')) return;
        if (strcmp(key, "planets") == 0 && expect('[')) {
            if (expect(']')) continue;
            do {
                struct planet pl;
                read_planet(&pl);
                if (planet_count < MAX_PLANETS) planets[planet_count++] = pl;
            } while (expect(','));
            expect(']');
        } else {
            skip_value();
        }
    } while (expect(','));
}

/* Writes s as a JSON string. */
static size_t put_string(char *out, size_t cap, const char *s) {
    size_t n = 0;
    if (n < cap) out[n++] = '"';
    for (; *s && n + 2 < cap; s++) {
        if (*s == '"' || *s == '\\') out[n++] = '\\';
        out[n++] = *s;
    }
    if (n < cap) out[n++] = '"';
    return n;
}

__attribute__((export_name("act"))) uint64_t act(const char *json, int32_t len) {
    read_observation(json, (size_t)len);
    struct planet *source = NULL, *target = NULL;
    for (int i = 0; i < planet_count; i++) {
        struct planet *pl = &planets[i];
        /* Ties broken by name, as the Python bot does. */
        if (pl->owner == 1) {
            if (!source || pl->ship_count > source->ship_count ||
                (pl->ship_count == source->ship_count && strcmp(pl->name, source->name) > 0))
                source = pl;
        } else if (!target || pl->ship_count < target->ship_count ||
                   (pl->ship_count == target->ship_count && strcmp(pl->name, target->name) < 0)) {
            target = pl;
        }
    }
    size_t n;
    if (!source || !target || source->ship_count <= target->ship_count) {
        n = (size_t)snprintf(answer, sizeof answer, "{\"moves\":[]}");
    } else {
        fprintf(stderr, "%s -> %s\n", source->name, target->name);
        n = (size_t)snprintf(answer, sizeof answer, "{\"moves\":[{\"origin\":");
        n += put_string(answer + n, sizeof answer - n, source->name);
        n += (size_t)snprintf(answer + n, sizeof answer - n, ",\"destination\":");
        n += put_string(answer + n, sizeof answer - n, target->name);
        n += (size_t)snprintf(answer + n, sizeof answer - n, ",\"ship_count\":%ld}]}",
                              source->ship_count);
    }
    return ((uint64_t)(uintptr_t)answer << 32) | (uint64_t)n;
}
