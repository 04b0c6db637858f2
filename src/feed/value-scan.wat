;; The feed writer's deferred value check (src/feed/value-scan.ts): the values a product changes
;; with every product (id, name, mpn, link, image) are checked in the chunk's UTF-8, sixteen bytes
;; at a time, rather than one by one in JavaScript. It only ever says "plain" (what the writer's
;; quick path would take unchanged) or "doubt"; a doubt sends the product to the full checker.
;;
;; Built into value-scan-wasm.ts by `node scripts/build-wasm.mjs` (wabt); a test holds the two equal.
(module
  (memory (export "memory") 1)

  ;; How many UTF-16 units the 16 bytes of $v start: one per lead or ASCII byte, two per 4-byte lead.
  (func $units (param $v v128) (result i32)
    (i32.add
      (i32.popcnt (i8x16.bitmask (i8x16.gt_s (local.get $v) (i8x16.splat (i32.const -65)))))
      (i32.popcnt (i8x16.bitmask (i8x16.ge_u (local.get $v) (i8x16.splat (i32.const 0xf0)))))))

  ;; The byte at which the character $need UTF-16 units after the one at $p starts (at most $end).
  (func $advance (param $p i32) (param $need i32) (param $end i32) (result i32)
    (local $b i32)
    (block $fast (loop $vector
      (br_if $fast (i32.lt_s (local.get $need) (i32.const 17)))
      (br_if $fast (i32.gt_u (i32.add (local.get $p) (i32.const 16)) (local.get $end)))
      (local.set $need (i32.sub (local.get $need) (call $units (v128.load align=1 (local.get $p)))))
      (local.set $p (i32.add (local.get $p) (i32.const 16)))
      (br $vector)))
    (block $counted (loop $byte
      (br_if $counted (i32.le_s (local.get $need) (i32.const 0)))
      (br_if $counted (i32.ge_u (local.get $p) (local.get $end)))
      (local.set $b (i32.load8_u (local.get $p)))
      (if (i32.ne (i32.and (local.get $b) (i32.const 0xc0)) (i32.const 0x80))
        (then (local.set $need (i32.sub (local.get $need) (select (i32.const 2) (i32.const 1) (i32.ge_u (local.get $b) (i32.const 0xf0)))))))
      (local.set $p (i32.add (local.get $p) (i32.const 1)))
      (br $byte)))
    ;; past the continuation bytes of the last character counted
    (block $whole (loop $rest
      (br_if $whole (i32.ge_u (local.get $p) (local.get $end)))
      (br_if $whole (i32.ne (i32.and (i32.load8_u (local.get $p)) (i32.const 0xc0)) (i32.const 0x80)))
      (local.set $p (i32.add (local.get $p) (i32.const 1)))
      (br $rest)))
    (local.get $p))

  ;; Whether the character at $p (before $end) may be white space that trim() removes: ASCII up to
  ;; the space, U+00A0, U+1680, U+2000 to U+207F, U+3000 (U+FEFF's 0xEF is doubted anyway).
  (func $blank (param $p i32) (param $end i32) (result i32)
    (local $b i32) (local $n i32)
    (local.set $b (i32.load8_u (local.get $p)))
    (if (i32.lt_u (local.get $b) (i32.const 0x80)) (then (return (i32.le_u (local.get $b) (i32.const 0x20)))))
    (if (i32.ge_u (i32.add (local.get $p) (i32.const 1)) (local.get $end)) (then (return (i32.const 1))))
    (local.set $n (i32.load8_u offset=1 (local.get $p)))
    (if (i32.eq (local.get $b) (i32.const 0xc2)) (then (return (i32.eq (local.get $n) (i32.const 0xa0)))))
    (if (i32.eq (local.get $b) (i32.const 0xe1)) (then (return (i32.eq (local.get $n) (i32.const 0x9a)))))
    (if (i32.eq (local.get $b) (i32.const 0xe2)) (then (return (i32.le_u (local.get $n) (i32.const 0x81)))))
    (if (i32.eq (local.get $b) (i32.const 0xe3)) (then (return (i32.eq (local.get $n) (i32.const 0x80)))))
    (i32.const 0))

  ;; The lead byte of the last character before $end (the region starts at $s).
  (func $lastLead (param $s i32) (param $end i32) (result i32)
    (local $p i32)
    (local.set $p (i32.sub (local.get $end) (i32.const 1)))
    (block $found (loop $back
      (br_if $found (i32.le_u (local.get $p) (local.get $s)))
      (br_if $found (i32.ne (i32.and (i32.load8_u (local.get $p)) (i32.const 0xc0)) (i32.const 0x80)))
      (local.set $p (i32.sub (local.get $p) (i32.const 1)))
      (br $back)))
    (local.get $p))

  ;; Text: no control character but tab, no '<', '&' or ']', nothing from 0xEF up (surrogates,
  ;; U+FFFE, U+FFFF and characters outside the BMP go to the checker), no white space at either end.
  (func $text (param $s i32) (param $n i32) (result i32)
    (local $off i32) (local $v v128) (local $m i32) (local $left i32)
    (if (i32.eqz (local.get $n)) (then (return (i32.const 0))))
    (if (call $blank (local.get $s) (i32.add (local.get $s) (local.get $n))) (then (return (i32.const 0))))
    (if (call $blank (call $lastLead (local.get $s) (i32.add (local.get $s) (local.get $n))) (i32.add (local.get $s) (local.get $n)))
      (then (return (i32.const 0))))
    (loop $vector
      (local.set $v (v128.load align=1 (i32.add (local.get $s) (local.get $off))))
      (local.set $m (i8x16.bitmask
        (v128.or
          (v128.or
            (v128.andnot (i8x16.lt_u (local.get $v) (i8x16.splat (i32.const 0x20))) (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x09))))
            (i8x16.ge_u (local.get $v) (i8x16.splat (i32.const 0xef))))
          (v128.or
            (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x3c)))
            (v128.or (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x26))) (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x5d))))))))
      (local.set $left (i32.sub (local.get $n) (local.get $off)))
      (if (i32.lt_u (local.get $left) (i32.const 16))
        (then (local.set $m (i32.and (local.get $m) (i32.sub (i32.shl (i32.const 1) (local.get $left)) (i32.const 1))))))
      (if (local.get $m) (then (return (i32.const 0))))
      (local.set $off (i32.add (local.get $off) (i32.const 16)))
      (br_if $vector (i32.lt_u (local.get $off) (local.get $n))))
    (i32.const 1))

  ;; A link: `https://` in any case, a host of at least one byte without '@' up to the first of
  ;; / ? #, and no byte below '!', DEL, '&', '<', ']', nor 0xC2, 0xE0 to 0xE3 or 0xEF up (where
  ;; Unicode's white space, surrogates and non-characters start). An image is no `.avif` either.
  (func $link (param $s i32) (param $n i32) (param $image i32) (result i32)
    (local $off i32) (local $v v128) (local $lanes i32) (local $host i32) (local $term i32) (local $at i32)
    (local $dots i32) (local $q i32) (local $after i32)
    (if (i32.lt_u (local.get $n) (i32.const 9)) (then (return (i32.const 0))))
    (if (i64.ne (i64.or (i64.load align=1 (local.get $s)) (i64.const 0x0000002020202020)) (i64.const 0x2f2f3a7370747468))
      (then (return (i32.const 0))))
    (local.set $off (i32.const 8))
    (local.set $host (i32.const 1))
    (loop $vector
      (local.set $v (v128.load align=1 (i32.add (local.get $s) (local.get $off))))
      (local.set $lanes (i32.sub (local.get $n) (local.get $off)))
      (local.set $lanes (select (i32.const 0xffff) (i32.sub (i32.shl (i32.const 1) (local.get $lanes)) (i32.const 1)) (i32.ge_u (local.get $lanes) (i32.const 16))))
      (if (i32.and (local.get $lanes) (i8x16.bitmask
            (v128.or
              (v128.or
                (v128.or (i8x16.lt_u (local.get $v) (i8x16.splat (i32.const 0x21))) (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x7f))))
                (v128.or (i8x16.ge_u (local.get $v) (i8x16.splat (i32.const 0xef)))
                  (i8x16.eq (v128.and (local.get $v) (i8x16.splat (i32.const 0xfc))) (i8x16.splat (i32.const 0xe0)))))
              (v128.or
                (v128.or (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0xc2))) (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x3c))))
                (v128.or (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x26))) (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x5d))))))))
        (then (return (i32.const 0))))
      (if (local.get $host)
        (then
          (local.set $term (i32.and (local.get $lanes) (i8x16.bitmask (v128.or
            (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x2f)))
            (v128.or (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x3f))) (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x23))))))))
          (local.set $at (i32.and (local.get $lanes) (i8x16.bitmask (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x40))))))
          (if (local.get $term)
            (then
              (if (i32.and (i32.eq (local.get $off) (i32.const 8)) (i32.eqz (i32.ctz (local.get $term)))) (then (return (i32.const 0))))
              (if (i32.and (local.get $at) (i32.sub (i32.shl (i32.const 1) (i32.ctz (local.get $term))) (i32.const 1))) (then (return (i32.const 0))))
              (local.set $host (i32.const 0)))
            (else (if (local.get $at) (then (return (i32.const 0))))))))
      (if (local.get $image)
        (then
          (local.set $dots (i32.and (local.get $lanes) (i8x16.bitmask (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x2e))))))
          (block $checked (loop $dot
            (br_if $checked (i32.eqz (local.get $dots)))
            ;; $q: just past `.avif` if one starts at this dot
            (local.set $q (i32.add (i32.add (local.get $off) (i32.ctz (local.get $dots))) (i32.const 5)))
            (if (i32.and (i32.le_u (local.get $q) (local.get $n))
                  (i32.eq (i32.or (i32.load align=1 (i32.sub (i32.add (local.get $s) (local.get $q)) (i32.const 4))) (i32.const 0x20202020)) (i32.const 0x66697661)))
              (then
                (if (i32.eq (local.get $q) (local.get $n)) (then (return (i32.const 0))))
                (local.set $after (i32.load8_u (i32.add (local.get $s) (local.get $q))))
                (if (i32.or (i32.eq (local.get $after) (i32.const 0x3f)) (i32.eq (local.get $after) (i32.const 0x23))) (then (return (i32.const 0))))))
            (local.set $dots (i32.and (local.get $dots) (i32.sub (local.get $dots) (i32.const 1))))
            (br $dot)))))
      (local.set $off (i32.add (local.get $off) (i32.const 16)))
      (br_if $vector (i32.lt_u (local.get $off) (local.get $n))))
    (i32.const 1))

;; $count regions at $regions, each three i32: its first character and its length in UTF-16
  ;; units from the text encoded at $base (up to $end), and a tag: kind (0 text, 1 link, 2 image)
  ;; plus 4 times the product's number. Regions come in the order of the text. With $ascii the
  ;; text was all ASCII (a unit is a byte). Writes the numbers of the products with a value in
  ;; doubt at $doubts (an i32 each, in order, each once) and returns how many there are.
  (func (export "check") (param $regions i32) (param $count i32) (param $base i32) (param $end i32) (param $ascii i32) (param $doubts i32) (result i32)
    (local $k i32) (local $start i32) (local $length i32) (local $tag i32) (local $s i32) (local $n i32)
    (local $p i32) (local $unit i32) (local $ok i32) (local $found i32) (local $last i32)
    (local.set $p (local.get $base))
    (local.set $last (i32.const -1))
    (block $done (loop $next
      (br_if $done (i32.ge_u (local.get $k) (local.get $count)))
      (local.set $start (i32.load (local.get $regions)))
      (local.set $length (i32.load offset=4 (local.get $regions)))
      (local.set $tag (i32.load offset=8 (local.get $regions)))
      (if (local.get $ascii)
        (then
          (local.set $s (i32.add (local.get $base) (local.get $start)))
          (local.set $n (local.get $length)))
        (else
          (local.set $s (call $advance (local.get $p) (i32.sub (local.get $start) (local.get $unit)) (local.get $end)))
          (local.set $p (call $advance (local.get $s) (local.get $length) (local.get $end)))
          (local.set $unit (i32.add (local.get $start) (local.get $length)))
          (local.set $n (i32.sub (local.get $p) (local.get $s)))))
      ;; a product already in doubt needs no more looking at
      (if (i32.ne (i32.shr_u (local.get $tag) (i32.const 2)) (local.get $last))
        (then
          (local.set $ok
            (if (result i32) (i32.eqz (i32.and (local.get $tag) (i32.const 3)))
              (then (call $text (local.get $s) (local.get $n)))
              (else (call $link (local.get $s) (local.get $n) (i32.eq (i32.and (local.get $tag) (i32.const 3)) (i32.const 2))))))
          (if (i32.eqz (local.get $ok))
            (then
              (local.set $last (i32.shr_u (local.get $tag) (i32.const 2)))
              (i32.store (i32.add (local.get $doubts) (i32.shl (local.get $found) (i32.const 2))) (local.get $last))
              (local.set $found (i32.add (local.get $found) (i32.const 1)))))))
      (local.set $regions (i32.add (local.get $regions) (i32.const 12)))
      (local.set $k (i32.add (local.get $k) (i32.const 1)))
      (br $next)))
    (local.get $found))
)
