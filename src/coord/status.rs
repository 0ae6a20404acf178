//! Job, server and item statuses as ElasticJob's statistics API computes them (being implemented).
