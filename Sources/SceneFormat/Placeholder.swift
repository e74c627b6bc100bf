public enum SceneFormatModule {}
