package dev.depbloom.step;

import dev.depbloom.data.EventStream;
import dev.depbloom.data.Split;
import dev.depbloom.model.config.ModelConfig;
import dev.depbloom.tensor.ThreadBudget;

/**
 * What a {@link TrainingSession} is built from: the events (times relative to the first event), the
 * split, the model, the seed every random stream derives from, the thread budget, and, from the
 * run's schedule, how many memory views it trains and the learning rate its optimizer uses.
 *
 * @param samplerThreads Java threads for neighbor sampling
 * @param memoryViews separate memory copies (one per DistTGL memory group or DepBloom chain)
 * @param learningRate Adam's learning rate as the schedule resolves it (e.g. scaled by devices)
 */
public record SessionSpec(
    EventStream events,
    Split split,
    ModelConfig config,
    long seed,
    ThreadBudget threads,
    int samplerThreads,
    int memoryViews,
    double learningRate) {}
