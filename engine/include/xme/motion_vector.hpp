// A motion vector in quarter-pel units (SPEC §3: an integer vector (dx, dy) is stored as 4*(dx, dy)).
// Plain ints, so that sums and differences of vectors never overflow before they are checked.
#pragma once

namespace xme {

struct MotionVector {
    int x = 0;
    int y = 0;

    friend constexpr bool operator==(const MotionVector&, const MotionVector&) = default;
};

}  // namespace xme
