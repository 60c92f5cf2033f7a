;; Separable bilinear resampling of 8-bit planes with WebAssembly SIMD (assembled by resample.ts at load).
;; Weights are 8-bit fractions (0–256). Sums such as l*256 + (r-l)*w + 128 stay within 0–65408, so they are
;; exact in wrapping 16-bit lanes read back unsigned.
(module
  (memory (export "memory") 1)

  ;; dst[i] = (s0[i]*(256-g) + s1[i]*g + 128) >> 8 for i < n rounded up to 16; s1 = s0 + stride.
  (func $vpass (param $s0 i32) (param $stride i32) (param $g i32) (param $n i32) (param $dst i32)
    (local $i i32) (local $gv v128) (local $half v128) (local $a v128) (local $b v128) (local $lo v128) (local $hi v128)
    (local.set $gv (i16x8.splat (local.get $g)))
    (local.set $half (i16x8.splat (i32.const 128)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $a (v128.load (i32.add (local.get $s0) (local.get $i))))
        (local.set $b (v128.load (i32.add (i32.add (local.get $s0) (local.get $stride)) (local.get $i))))
        (local.set $lo (i16x8.extend_low_i8x16_u (local.get $a)))
        (local.set $hi (i16x8.extend_high_i8x16_u (local.get $a)))
        (local.set $lo
          (i16x8.shr_u
            (i16x8.add
              (i16x8.add (i16x8.shl (local.get $lo) (i32.const 8))
                (i16x8.mul (i16x8.sub (i16x8.extend_low_i8x16_u (local.get $b)) (local.get $lo)) (local.get $gv)))
              (local.get $half))
            (i32.const 8)))
        (local.set $hi
          (i16x8.shr_u
            (i16x8.add
              (i16x8.add (i16x8.shl (local.get $hi) (i32.const 8))
                (i16x8.mul (i16x8.sub (i16x8.extend_high_i8x16_u (local.get $b)) (local.get $hi)) (local.get $gv)))
              (local.get $half))
            (i32.const 8)))
        (v128.store (i32.add (local.get $dst) (local.get $i)) (i8x16.narrow_i16x8_u (local.get $lo) (local.get $hi)))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $next))))

  ;; Eight outputs from one 48-byte table entry: i32 base, then at +16 a swizzle mask whose lanes 0-7 pick
  ;; the left and lanes 8-15 the right neighbours in the 16 bytes at src+base, then at +32 eight i16 weights.
  (func $block (param $src i32) (param $e i32) (result v128)
    (local $s v128) (local $l v128)
    (local.set $s (i8x16.swizzle (v128.load (i32.add (local.get $src) (i32.load (local.get $e))))
                                 (v128.load offset=16 (local.get $e))))
    (local.set $l (i16x8.extend_low_i8x16_u (local.get $s)))
    (i16x8.shr_u
      (i16x8.add
        (i16x8.add (i16x8.shl (local.get $l) (i32.const 8))
          (i16x8.mul (i16x8.sub (i16x8.extend_high_i8x16_u (local.get $s)) (local.get $l))
                     (v128.load offset=32 (local.get $e))))
        (i16x8.splat (i32.const 128)))
      (i32.const 8)))

  ;; Sixteen outputs per step from pairs of table entries.
  (func $hpass (param $src i32) (param $tab i32) (param $pairs i32) (param $dst i32)
    (local $p i32) (local $e i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $p) (local.get $pairs)))
        (local.set $e (i32.add (local.get $tab) (i32.mul (local.get $p) (i32.const 96))))
        (v128.store (i32.add (local.get $dst) (i32.shl (local.get $p) (i32.const 4)))
          (i8x16.narrow_i16x8_u
            (call $block (local.get $src) (local.get $e))
            (call $block (local.get $src) (i32.add (local.get $e) (i32.const 48)))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $next))))

  ;; One plane: per output row the row table holds (i32 source row, i32 weight); columns x0 .. x0+ncols of
  ;; the two source rows are blended into tmp, then gathered into the output row.
  (func (export "plane")
    (param $src i32) (param $stride i32) (param $rows i32) (param $dh i32) (param $x0 i32) (param $ncols i32)
    (param $tab i32) (param $pairs i32) (param $tmp i32) (param $dst i32) (param $dw i32)
    (local $y i32) (local $e i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $y) (local.get $dh)))
        (local.set $e (i32.add (local.get $rows) (i32.shl (local.get $y) (i32.const 3))))
        (call $vpass
          (i32.add (i32.add (local.get $src) (i32.mul (i32.load (local.get $e)) (local.get $stride))) (local.get $x0))
          (local.get $stride) (i32.load offset=4 (local.get $e)) (local.get $ncols) (local.get $tmp))
        (call $hpass (local.get $tmp) (local.get $tab) (local.get $pairs)
          (i32.add (local.get $dst) (i32.mul (local.get $y) (local.get $dw))))
        (local.set $y (i32.add (local.get $y) (i32.const 1)))
        (br $next))))

  ;; bg[i] = bg[i] + (fg[i] - bg[i]) * alpha[i] / 255 for i < n (a multiple of 16), alpha 255 mapped to 256.
  (func (export "blend") (param $bg i32) (param $fg i32) (param $alpha i32) (param $n i32)
    (local $i i32) (local $a v128) (local $b v128) (local $f v128) (local $w v128) (local $x v128)
    (local $lo v128) (local $hi v128) (local $half v128)
    (local.set $half (i16x8.splat (i32.const 128)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $a (v128.load (i32.add (local.get $alpha) (local.get $i))))
        (local.set $b (v128.load (i32.add (local.get $bg) (local.get $i))))
        (local.set $f (v128.load (i32.add (local.get $fg) (local.get $i))))
        (local.set $w (i16x8.extend_low_i8x16_u (local.get $a)))
        (local.set $w (i16x8.add (local.get $w) (i16x8.shr_u (local.get $w) (i32.const 7))))
        (local.set $x (i16x8.extend_low_i8x16_u (local.get $b)))
        (local.set $lo
          (i16x8.shr_u
            (i16x8.add
              (i16x8.add (i16x8.shl (local.get $x) (i32.const 8))
                (i16x8.mul (i16x8.sub (i16x8.extend_low_i8x16_u (local.get $f)) (local.get $x)) (local.get $w)))
              (local.get $half))
            (i32.const 8)))
        (local.set $w (i16x8.extend_high_i8x16_u (local.get $a)))
        (local.set $w (i16x8.add (local.get $w) (i16x8.shr_u (local.get $w) (i32.const 7))))
        (local.set $x (i16x8.extend_high_i8x16_u (local.get $b)))
        (local.set $hi
          (i16x8.shr_u
            (i16x8.add
              (i16x8.add (i16x8.shl (local.get $x) (i32.const 8))
                (i16x8.mul (i16x8.sub (i16x8.extend_high_i8x16_u (local.get $f)) (local.get $x)) (local.get $w)))
              (local.get $half))
            (i32.const 8)))
        (v128.store (i32.add (local.get $bg) (local.get $i)) (i8x16.narrow_i16x8_u (local.get $lo) (local.get $hi)))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $next)))))
