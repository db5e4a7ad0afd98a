package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"
)

func testVerifies(t *testing.T, dsn newDSN) {
	ctx := context.Background()
	s := openT(t, dsn(t))
	base := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
	v := func(id, unit, verdict string, at int) Verify {
		return Verify{ID: id, CreatedAt: base.Add(time.Duration(at) * time.Hour), DeviceKey: "sd:1b:sm:ec1s5",
			UnitKey: unit, Target: "/dev/mmcblk0", Mode: "probe", Verdict: verdict, ClaimedBytes: 64e9, UsableBytes: 8e9,
			Result: json.RawMessage(fmt.Sprintf(`{"verdict":%q}`, verdict))}
	}
	for _, x := range []Verify{v("a", "unit1", "fake", 1), v("b", "unit1", "genuine", 3), v("c", "unit2", "fake", 2)} {
		if err := s.SaveVerify(ctx, x); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.LatestVerify(ctx, "unit1")
	if err != nil || got == nil || got.ID != "b" || got.Verdict != "genuine" || !got.CreatedAt.Equal(base.Add(3*time.Hour)) {
		t.Fatalf("LatestVerify(unit1) = %+v, %v", got, err)
	}
	if string(got.Result) != `{"verdict":"genuine"}` {
		t.Errorf("result %s, not as given", got.Result)
	}
	if none, err := s.LatestVerify(ctx, "unit9"); none != nil || err != nil {
		t.Errorf("LatestVerify(unit9) = %+v, %v; want nil, nil", none, err)
	}
	all, err := s.DeviceVerifies(ctx, "sd:1b:sm:ec1s5", 10)
	if err != nil || len(all) != 3 || all[0].ID != "b" || all[1].ID != "c" || all[2].ID != "a" {
		t.Errorf("DeviceVerifies = %v, %v; want b, c, a", all, err)
	}
	if err := s.SaveVerify(ctx, v("a", "unit1", "fake", 5)); !errors.Is(err, ErrConflict) {
		t.Errorf("saving id a again: %v, want ErrConflict", err)
	}
	bad := v("d", "unit1", "fake", 1)
	bad.Mode = "guess"
	if err := s.SaveVerify(ctx, bad); !errors.Is(err, ErrInvalid) {
		t.Errorf("bad mode: %v, want ErrInvalid", err)
	}
	bad = v("e", "", "fake", 1)
	if err := s.SaveVerify(ctx, bad); !errors.Is(err, ErrInvalid) {
		t.Errorf("no unit key: %v, want ErrInvalid", err)
	}
	bad = v("f", "unit1", "fake", 1)
	bad.Result = json.RawMessage(`[1]`)
	if err := s.SaveVerify(ctx, bad); !errors.Is(err, ErrInvalid) {
		t.Errorf("result not an object: %v, want ErrInvalid", err)
	}
}

// testVerifyFull: a full verify (mode full) is kept like a probe's; a mode of nothing known
// is refused.
func testVerifyFull(t *testing.T, dsn newDSN) {
	st := openT(t, dsn(t))
	v := Verify{ID: "full1", CreatedAt: time.Now(), DeviceKey: "d", UnitKey: "u", Target: "/dev/sdx", Mode: "full",
		Verdict: "damaged", ClaimedBytes: 1 << 30, UsableBytes: 1 << 30, Result: []byte(`{"verdict":"damaged","mode":"full"}`)}
	if err := st.SaveVerify(context.Background(), v); err != nil {
		t.Fatalf("save a full verify: %v", err)
	}
	got, err := st.LatestVerify(context.Background(), "u")
	if err != nil || got == nil || got.Mode != "full" {
		t.Fatalf("latest %+v, %v", got, err)
	}
	if got, err := st.VerifiesByID(context.Background(), "ful"); err != nil || len(got) != 1 || got[0].ID != "full1" {
		t.Errorf("VerifiesByID(ful) = %+v, %v", got, err)
	}
	if got, err := st.VerifiesByID(context.Background(), "ll1"); err != nil || len(got) != 1 {
		t.Errorf("VerifiesByID(ll1) = %+v, %v: the short id is the end", got, err)
	}
	if got, err := st.VerifiesByID(context.Background(), "f%"); err != nil || len(got) != 0 {
		t.Errorf("VerifiesByID(f%%) = %+v, %v: a pattern character matched", got, err)
	}
	v.ID, v.Mode = "odd1", "sampled"
	if err := st.SaveVerify(context.Background(), v); err == nil {
		t.Error("mode sampled was accepted")
	}
}
