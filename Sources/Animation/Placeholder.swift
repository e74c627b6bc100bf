public enum AnimationModule {}
