/* Test tooling only, never shipped: Rust's standard library on Windows (1.78 and
 * later) imports ProcessPrng from bcryptprimitives.dll, which Debian 12's Wine 8.0 lacks, so
 * every Rust program fails to start under it (status c0000135). This DLL exports ProcessPrng
 * over RtlGenRandom (advapi32's SystemFunction036). .ci/wine/setup.sh builds it with mingw-w64
 * and puts it in the test prefix's system32. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    /* RtlGenRandom takes a ULONG: larger requests in pieces. */
    while (length > 0) {
        ULONG piece = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!SystemFunction036(data, piece))
            return FALSE;
        data += piece;
        length -= piece;
    }
    return TRUE;
}
