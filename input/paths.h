#define PKGDATADIR "/usr/local/share/ppsim"
