/** How a tag is used in a template. */
export type TagUsage = 'placeholder' | 'section' | 'inverted-section' | 'raw';
