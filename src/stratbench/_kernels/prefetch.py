"""A hint to the processor to bring an array's item into cache before a kernel reads it (LLVM's
``llvm.prefetch``, read, into every cache level, through a numba intrinsic).

The hybrid's search visits rows in a random order, and each visit follows a chain of reads: the row's
combinations, then each combination's record, on extreme-scale data tens of megabytes apart. Without a
hint each link waits for memory in turn; with hints issued a few rows ahead the reads overlap. A hint
changes no value: the folds are the same bytes with it or without. Where the kernels are not compiled by
numba (ahead of time they are already compiled in), these are Python functions no kernel calls.
"""

from stratbench._kernels._compile import numba

if numba is None:

    def prefetch(array, i):  # pragma: no cover - never called: the compiled kernels hold their own
        """Bring ``array[i]`` into cache."""

    def prefetch_at(array, i, j):  # pragma: no cover - never called
        """Bring ``array[i, j]`` into cache."""

else:
    from llvmlite import ir
    from numba.core import cgutils, types
    from numba.core.extending import intrinsic

    def _hint(context, builder, array_type, array, indices):
        """Emit ``llvm.prefetch(&array[indices], read, locality 3, data)``."""
        view = context.make_array(array_type)(context, builder, array)
        address = cgutils.get_item_pointer(context, builder, array_type, view, indices, wraparound=False)
        byte_pointer, i32 = ir.IntType(8).as_pointer(), ir.IntType(32)
        hint = builder.module.declare_intrinsic("llvm.prefetch", [byte_pointer],
                                                ir.FunctionType(ir.VoidType(), [byte_pointer, i32, i32, i32]))
        builder.call(hint, [builder.bitcast(address, byte_pointer), i32(0), i32(3), i32(1)])

    @intrinsic
    def prefetch(typingctx, array, i):
        """Bring ``array[i]`` into cache (no bounds check: an index out of range only hints at nothing)."""
        def codegen(context, builder, signature, args):
            index = context.cast(builder, args[1], signature.args[1], types.intp)
            _hint(context, builder, signature.args[0], args[0], [index])
            return context.get_dummy_value()
        return types.void(array, i), codegen

    @intrinsic
    def prefetch_at(typingctx, array, i, j):
        """Bring ``array[i, j]`` of a matrix into cache."""
        def codegen(context, builder, signature, args):
            index = [context.cast(builder, value, kind, types.intp) for value, kind in zip(args[1:], signature.args[1:])]
            _hint(context, builder, signature.args[0], args[0], index)
            return context.get_dummy_value()
        return types.void(array, i, j), codegen
