package lab

import (
	"testing"

	"github.com/iomark/iomark/internal/testkit"
)

// Require ends the test, saying what is missing, where drives cannot be emulated (not root, no
// loop driver, no blkio controller): a skip, or a failure in CI (testkit.Require).
func Require(t testing.TB) {
	t.Helper()
	if err := Available(); err != nil {
		testkit.Require(t, err.Error())
	}
}

// NewDrive brings up a drive for a test and takes it down when the test ends. Where drives
// are unavailable (not root, no loop driver, no blkio controller, no mkfs.ext4 for an ext4
// spec) it ends the test as Require does; any other failure fails the test.
func NewDrive(t testing.TB, s Spec) *Drive {
	t.Helper()
	return upForTest(t, "drive", s.Name, availableFor(s), func() (*Drive, error) { return Up(s) })
}

// upForTest ends the test as testkit.Require does where unavailable is an error, else brings
// up what up does (a drive or a card, named name) and takes it down when the test ends.
func upForTest[D interface{ Down() error }](t testing.TB, what, name string, unavailable error, up func() (D, error)) D {
	t.Helper()
	if unavailable != nil {
		testkit.Require(t, unavailable.Error())
	}
	d, err := up()
	if err != nil {
		t.Fatalf("bring up %s: %v", what, err)
	}
	t.Cleanup(func() {
		if err := d.Down(); err != nil {
			t.Errorf("take down %s %s: %v", what, name, err)
		}
	})
	return d
}

// NeedFio ends the test, saying why, when fio is not usable here (testkit.Require).
func NeedFio(t testing.TB) {
	t.Helper()
	if err := FioAvailable(); err != nil {
		testkit.Require(t, err.Error()+" (scripts/setup-test-deps.sh installs fio)")
	}
}

// NewCardDrive brings up an emulated flash card for a test and takes it down when the test
// ends. Where cards are unavailable (not root, no /dev/fuse, no loop driver) it ends the test
// as testkit.Require does, saying what is missing.
func NewCardDrive(t testing.TB, s CardSpec, a CardAttach) *CardDrive {
	t.Helper()
	return upForTest(t, "card", s.Name, CardAvailable(), func() (*CardDrive, error) { return UpCard(s, a) })
}
