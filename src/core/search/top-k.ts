/**
 * The first `k` items of `items` in `compare` order, sorted — without sorting everything: a page of
 * 10 among 40 000 matches costs O(n log k). A bounded max-heap of the best k seen so far (its root is
 * the worst of them) is the textbook way; no dependency offers it for plain arrays with a comparator.
 */
export function topK<T>(items: readonly T[], k: number, compare: (a: T, b: T) => number): T[] {
  return topKOf(items.length, k, (i, j) => compare(items[i]!, items[j]!)).map((i) => items[i]!)
}

/**
 * The same over positions 0…count-1, for results kept in parallel typed arrays (no object per
 * match): returns the positions of the first `k` in `compare` order.
 */
export function topKOf(count: number, k: number, compare: (a: number, b: number) => number): number[] {
  if (k <= 0) return []
  if (count <= k * 4)
    return Array.from({ length: count }, (_, i) => i)
      .sort(compare)
      .slice(0, k)
  const heap: number[] = []
  // heap[0] is the worst kept position: the one that sorts last
  const worse = (i: number, j: number) => compare(heap[i]!, heap[j]!) > 0
  const swap = (i: number, j: number) => {
    const t = heap[i]!
    heap[i] = heap[j]!
    heap[j] = t
  }
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1
      const r = l + 1
      let top = i
      if (l < heap.length && worse(l, top)) top = l
      if (r < heap.length && worse(r, top)) top = r
      if (top === i) return
      swap(i, top)
      i = top
    }
  }
  for (let item = 0; item < count; item++) {
    if (heap.length < k) {
      heap.push(item)
      for (let i = heap.length - 1; i > 0;) {
        const parent = (i - 1) >> 1
        if (!worse(i, parent)) break
        swap(i, parent)
        i = parent
      }
    } else if (compare(item, heap[0]!) < 0) {
      heap[0] = item
      down(0)
    }
  }
  return heap.sort(compare)
}
