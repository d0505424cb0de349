package dev.depbloom.tensor;

import java.util.HashMap;
import java.util.Map;

/**
 * What each libtorch operator costs, from the shapes and element sizes recorded for its call. Sizes
 * are logical: a broadcast ({@code expand}ed) input counts at its expanded size. A multiply-add is
 * 2 FLOPs. Every rule below counts one kernel per call.
 *
 * <ul>
 *   <li><b>Matrix products</b>: {@code mm} [M,K]x[K,N] 2MNK; {@code addmm} 2MNK + MN (the bias
 *       add); {@code bmm} 2BMNK; {@code baddbmm} 2BMNK + BMN; {@code addbmm} 2BMNK + MN; {@code mv}
 *       2MN; {@code addmv} 2MN + M; {@code dot} 2N. Bytes: inputs read, output written.
 *   <li><b>Pointwise</b> ({@code add, mul, div, sub, exp, sigmoid, tanh, relu, where,
 *       sigmoid_backward, addcmul_, ...}): 1 FLOP per output element, a transcendental (exp,
 *       sigmoid, tanh, ...) included; inputs read, outputs written. An in-place op reads and writes
 *       its first input.
 *   <li><b>Random fills</b> ({@code bernoulli_, uniform_, normal_}): 1 FLOP per element written;
 *       <b>fills</b> ({@code fill_, zero_}): 0 FLOPs; both write their output and read only the
 *       inputs after the first.
 *   <li><b>Reductions</b> ({@code sum, mean, amax, max, norm, ...}): 1 FLOP per input element;
 *       inputs read, outputs written.
 *   <li><b>Softmax</b>: {@code _softmax, _log_softmax} 5 FLOPs per element (max, subtract, exp,
 *       sum, divide or log); their backward ({@code _softmax_backward_data, ...}) 4 per element.
 *   <li><b>Layer norm</b>: {@code native_layer_norm} 8 FLOPs per input element (mean 1, variance 3,
 *       normalize 2, affine 2); {@code native_layer_norm_backward} 15 (normalized input again 2,
 *       scaled gradient 1, two row sums 3, input gradient 4, weight and bias gradients 3 + 2).
 *       Inputs read, outputs (with the per-row mean and deviation) written.
 *   <li><b>{@code equal}</b> (are two tensors equal, answered to the host): 1 FLOP per element of
 *       the first, both read, nothing written.
 *   <li><b>Data movement</b>, 0 FLOPs: {@code copy_} reads its source and writes its output; {@code
 *       index_select, gather, embedding, index} read what they write plus their index; {@code
 *       index_copy_, scatter_, index_put_} read the source (and index) and write as many elements
 *       of the target; {@code index_add_, scatter_add_} also read the target elements they add to;
 *       {@code cat, stack} read and write their output; {@code _to_copy} reads its input and writes
 *       its output; {@code _local_scalar_dense} (a tensor's value to the host) reads one element.
 *   <li><b>Views and allocations</b> ({@code view, reshape} without copy, {@code narrow, select,
 *       slice, transpose, t, permute, expand, squeeze, unsqueeze, detach, alias, as_strided, empty,
 *       empty_like, resize_, is_same_size, ...}): no kernel, 0 cost.
 *   <li><b>Composites</b> ({@code linear, matmul, dropout, softmax, clone, contiguous, to, zeros,
 *       ones_like, binary_cross_entropy_with_logits, ...} and the autograd engine's {@code
 *       evaluate_function} ranges): cost nothing themselves; the operators they dispatch are
 *       counted. A composite that dispatches no kernel (a {@code reshape} that is a view) counts as
 *       a view.
 *   <li><b>Unknown operators</b>: a composite when a kernel ran inside them, else one kernel with 0
 *       FLOPs, its tensor inputs read and its tensor outputs written ({@link OpWork.Kind#UNRULED}).
 * </ul>
 *
 * <p>An operator with a rule counts as exactly one kernel whatever it dispatches inside (CPU {@code
 * addmm} copies its bias with {@code copy_}, CPU {@code sum} fills its output first with {@code
 * fill_}): the rule prices the operator as one device kernel would run it.
 */
final class OpCostRules {
  /** How a call is counted. */
  enum Kind {
    /** Free: no kernel, nothing inside it counted. */
    VIEW,
    /** Its kernels are counted, not itself. */
    COMPOSITE,
    /** One kernel priced by its pricing, nothing inside it counted. */
    KERNEL,
    /** No rule: a composite when a kernel ran inside, else an unruled kernel. */
    UNKNOWN,
    /** A call inside a kernel or a view: not looked at, not counted. */
    IGNORED
  }

  /** Prices a call from its recorded shapes ({@link OpCall#price}). */
  @FunctionalInterface
  interface Pricing {
    void price(OpCall c);
  }

  /** An operator's rule: how it is counted and, for a kernel, how it is priced. */
  record Rule(Kind kind, Pricing pricing) {
    /** Whether the recorder must capture the call's input shapes and outputs. */
    boolean needsShapes() {
      return kind == Kind.KERNEL || kind == Kind.UNKNOWN;
    }
  }

  static final Rule VIEW = new Rule(Kind.VIEW, null);
  static final Rule COMPOSITE = new Rule(Kind.COMPOSITE, null);
  static final Rule UNKNOWN = new Rule(Kind.UNKNOWN, OpCostRules::moved);
  static final Rule IGNORED = new Rule(Kind.IGNORED, null);

  /** Names of the autograd engine's ranges around each backward node start with this. */
  static final String BACKWARD_NODE_PREFIX = "autograd::engine::evaluate_function: ";

  private static final Map<String, Rule> RULES = new HashMap<>();

  static {
    for (String op :
        ("view _unsafe_view as_strided as_strided_ transpose transpose_ t t_ permute expand"
                + " squeeze squeeze_ unsqueeze unsqueeze_ narrow select slice detach detach_ alias"
                + " _reshape_alias unfold split split_with_sizes chunk unbind diagonal view_as"
                + " lift_fresh resolve_conj resolve_neg _conj conj movedim swapaxes empty"
                + " empty_like empty_strided new_empty new_empty_strided resize_ set_ result_type"
                + " _has_compatible_shallow_copy_type is_same_size")
            .split(" ")) {
      RULES.put("aten::" + op, VIEW);
    }
    for (String op :
        ("linear matmul dropout feature_dropout alpha_dropout reshape flatten contiguous clone"
                + " to type_as expand_as reshape_as zeros ones full zeros_like ones_like full_like"
                + " new_zeros new_ones new_full rand randn rand_like randn_like softmax log_softmax"
                + " layer_norm gru_cell lstm_cell rnn_tanh_cell sum_to_size item is_nonzero"
                + " binary_cross_entropy_with_logits index_select_backward index_add index_copy"
                + " log_sigmoid slice_backward select_backward")
            .split(" ")) {
      RULES.put("aten::" + op, COMPOSITE);
    }
    kernel(OpCostRules::mm, "mm");
    kernel(OpCostRules::addmm, "addmm");
    kernel(OpCostRules::bmm, "bmm");
    kernel(OpCostRules::baddbmm, "baddbmm");
    kernel(OpCostRules::addbmm, "addbmm");
    kernel(OpCostRules::mv, "mv");
    kernel(OpCostRules::addmv, "addmv");
    kernel(OpCostRules::dot, "dot vdot");
    kernel(
        OpCostRules::pointwise,
        "add add_ sub sub_ rsub mul mul_ div div_ neg neg_ exp exp_ log log_ log1p expm1"
            + " sigmoid sigmoid_ tanh tanh_ relu relu_ threshold threshold_backward"
            + " sigmoid_backward tanh_backward sqrt sqrt_ rsqrt rsqrt_ pow pow_ reciprocal"
            + " reciprocal_ abs abs_ sign cos sin clamp clamp_ clamp_min clamp_min_ clamp_max"
            + " clamp_max_ where masked_fill masked_fill_ maximum minimum eq ne gt lt ge le"
            + " logical_and logical_or logical_not leaky_relu leaky_relu_ leaky_relu_backward gelu"
            + " gelu_backward elu elu_backward silu silu_backward softplus softplus_backward"
            + " log_sigmoid_forward log_sigmoid_backward hardtanh hardtanh_backward lerp lerp_"
            + " addcmul addcmul_ addcdiv addcdiv_ _masked_scale square cumsum");
    kernel(OpCostRules::randomFill, "bernoulli_ bernoulli uniform_ normal_ random_ exponential_");
    kernel(OpCostRules::fill, "fill_ zero_");
    kernel(
        OpCostRules::reduction,
        "sum mean amax amin max min prod norm linalg_vector_norm var std var_mean std_mean"
            + " argmax argmin all any logsumexp");
    kernel(c -> normalization(c, 5), "_softmax _log_softmax");
    kernel(c -> normalization(c, 4), "_softmax_backward_data _log_softmax_backward_data");
    kernel(c -> perInputElement(c, 8), "native_layer_norm");
    kernel(c -> perInputElement(c, 15), "native_layer_norm_backward");
    kernel(c -> c.price(c.numel(0), c.inputBytes(), 0), "equal");
    kernel(OpCostRules::copy, "copy_");
    kernel(OpCostRules::gathered, "index_select gather embedding index");
    kernel(c -> scattered(c, false), "index_copy_ scatter_ index_put_ _index_put_impl_");
    kernel(c -> scattered(c, true), "index_add_ scatter_add_");
    kernel(c -> c.price(0, c.outputBytes(), c.outputBytes()), "cat stack");
    kernel(OpCostRules::moved, "_to_copy");
    kernel(c -> c.price(0, c.inputBytes(), 0), "_local_scalar_dense");
  }

  private OpCostRules() {}

  /** The rule of operator {@code name}; {@link #UNKNOWN} when there is none. */
  static Rule of(String name) {
    Rule r = RULES.get(name);
    if (r != null) {
      return r;
    }
    return name.startsWith(BACKWARD_NODE_PREFIX) ? COMPOSITE : UNKNOWN;
  }

  private static void kernel(Pricing pricing, String ops) {
    Rule rule = new Rule(Kind.KERNEL, pricing);
    for (String op : ops.split(" ")) {
      RULES.put("aten::" + op, rule);
    }
  }

  /** Inputs read, outputs written, no FLOPs: the default of an unknown leaf operator. */
  static void moved(OpCall c) {
    c.price(0, c.inputBytes(), c.outputBytes());
  }

  private static void mm(OpCall c) { // (a [M,K], b [K,N])
    c.price(2 * c.size(0, 0) * c.size(0, 1) * c.size(1, 1), c.inputBytes(), c.outputBytes());
  }

  private static void addmm(OpCall c) { // (bias, a [M,K], b [K,N])
    long m = c.size(1, 0);
    long n = c.size(2, 1);
    c.price(2 * m * n * c.size(1, 1) + m * n, c.inputBytes(), c.outputBytes());
  }

  private static void bmm(OpCall c) { // (a [B,M,K], b [B,K,N])
    long flops = 2 * c.size(0, 0) * c.size(0, 1) * c.size(0, 2) * c.size(1, 2);
    c.price(flops, c.inputBytes(), c.outputBytes());
  }

  private static void baddbmm(OpCall c) { // (c, a [B,M,K], b [B,K,N])
    long bmn = c.size(1, 0) * c.size(1, 1) * c.size(2, 2);
    c.price(2 * bmn * c.size(1, 2) + bmn, c.inputBytes(), c.outputBytes());
  }

  private static void addbmm(OpCall c) { // (c [M,N], a [B,M,K], b [B,K,N])
    long mn = c.size(1, 1) * c.size(2, 2);
    c.price(2 * c.size(1, 0) * mn * c.size(1, 2) + mn, c.inputBytes(), c.outputBytes());
  }

  private static void mv(OpCall c) { // (a [M,N], x [N])
    c.price(2 * c.size(0, 0) * c.size(0, 1), c.inputBytes(), c.outputBytes());
  }

  private static void addmv(OpCall c) { // (y [M], a [M,N], x [N])
    long m = c.size(1, 0);
    c.price(2 * m * c.size(1, 1) + m, c.inputBytes(), c.outputBytes());
  }

  private static void dot(OpCall c) {
    c.price(2 * c.numel(0), c.inputBytes(), c.outputBytes());
  }

  private static void pointwise(OpCall c) {
    c.price(c.outputNumel(), c.inputBytes(), c.outputBytes());
  }

  private static void randomFill(OpCall c) {
    c.price(c.outputNumel(), c.inputBytes() - c.inputBytes(0), c.outputBytes());
  }

  private static void fill(OpCall c) {
    c.price(0, c.inputBytes() - c.inputBytes(0), c.outputBytes());
  }

  private static void reduction(OpCall c) {
    c.price(c.numel(0), c.inputBytes(), c.outputBytes());
  }

  private static void perInputElement(OpCall c, int flopsPerElement) {
    c.price(flopsPerElement * c.numel(0), c.inputBytes(), c.outputBytes());
  }

  private static void normalization(OpCall c, int flopsPerElement) {
    c.price(flopsPerElement * c.outputNumel(), c.inputBytes(), c.outputBytes());
  }

  /** {@code copy_(self, src)}: the source read, the output written. */
  private static void copy(OpCall c) {
    c.price(0, c.inputBytes(1), c.outputBytes());
  }

  /** {@code index_select(self, dim, index)} and the like: the gathered rows and the index read. */
  private static void gathered(OpCall c) {
    long index = 0;
    for (int i = 1; i < c.inputs; i++) {
      index += c.inputBytes(i);
    }
    c.price(0, c.outputBytes() + index, c.outputBytes());
  }

  /**
   * {@code index_copy_(self, dim, index, source)} and the like: the source and index read, as many
   * elements of the target written (and read too when {@code accumulate}, as {@code index_add_}).
   */
  private static void scattered(OpCall c, boolean accumulate) {
    long read = 0;
    long sourceNumel = 0;
    for (int i = 1; i < c.inputs; i++) {
      read += c.inputBytes(i);
      if (c.isTensor(i) && c.inElement[i] == c.inElement[0]) {
        sourceNumel = Math.max(sourceNumel, c.numel(i)); // the source; the index is int64
      }
    }
    long target = sourceNumel * c.inElement[0];
    c.price(0, read + (accumulate ? target : 0), target);
  }
}
