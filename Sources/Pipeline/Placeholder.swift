public enum PipelineModule {}
