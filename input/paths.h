#define PKGDATADIR "/tmp/ux/p2/share/ppsim"
