/**
 * Arrays a dynamic programme of the word estimate uses for one run and leaves: kept from one run to the next
 * (the player times a part's words many times while it streams, and a fresh table each time was most of
 * what its page allocated), up to `KEPT` elements; a larger one is made for its run alone. Not reentrant:
 * each user has its own, and a run never yields while it holds one.
 */
type Typed = Float64Array<ArrayBuffer> | Uint16Array<ArrayBuffer>;

/** Elements kept between runs (a Uint16 table of 2 MB, a Float64 one of 8 MB; the tables seen are far smaller). */
const KEPT = 1 << 20;

/** A scratch array of `make`'s kind: `take(n)` gives `n` elements, their contents left from before (the caller fills them). */
export function scratch<A extends Typed>(make: (length: number) => A): (n: number) => A {
  let kept = make(0);
  return (n) => {
    if (n <= kept.length) return kept.subarray(0, n) as A;
    if (n > KEPT) return make(n);
    kept = make(Math.min(KEPT, Math.max(n, 2 * kept.length)));
    return kept.subarray(0, n) as A;
  };
}
