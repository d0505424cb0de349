package dev.depbloom.model.config;

/**
 * TGL's {@code train} section plus evaluation settings.
 *
 * @param epochs passes over the training events
 * @param batchSize events per batch
 * @param learningRate Adam's learning rate
 * @param dropout dropout on layer outputs
 * @param attentionDropout dropout on attention weights
 * @param evalNegatives negatives per test event for MRR (DistTGL uses 49); 0 skips MRR
 */
public record TrainConfig(
    int epochs,
    int batchSize,
    double learningRate,
    double dropout,
    double attentionDropout,
    int evalNegatives) {

  /** This section with another number of epochs. */
  public TrainConfig withEpochs(int value) {
    return new TrainConfig(
        value, batchSize, learningRate, dropout, attentionDropout, evalNegatives);
  }

  /** This section with another learning rate. */
  public TrainConfig withLearningRate(double value) {
    return new TrainConfig(epochs, batchSize, value, dropout, attentionDropout, evalNegatives);
  }

  static TrainConfig read(SectionReader r) {
    r.ignore("all_on_gpu", "reorder");
    int epochs = r.positiveInt("epoch", 3);
    int batch = r.positiveInt("batch_size", 600);
    double lr = r.positiveNumber("lr", 1e-4);
    double dropout = r.number("dropout", 0.2, 0, 0.999);
    double attDropout = r.number("att_dropout", dropout, 0, 0.999);
    int evalNegatives = r.nonNegativeInt("eval_negatives", 49);
    r.finish();
    return new TrainConfig(epochs, batch, lr, dropout, attDropout, evalNegatives);
  }
}
