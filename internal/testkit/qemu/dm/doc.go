// Package dm creates, reloads and removes device-mapper devices through the DM ioctls (the
// work of `dmsetup create/load/resume/remove`), so a QEMU guest of the lab can build faulty
// and fake drives (dm-error, dm-flakey, a dm-linear wrap-around fake card) without shipping
// dmsetup and its libraries. It is used only inside lab guests, never on the host.
package dm
